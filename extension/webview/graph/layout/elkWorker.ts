// ELK in a Web Worker, off the page's thread: a layout of seconds no longer freezes the view.
// A webview can start a worker only from its own origin or a blob: URL, so the worker is made
// from elkjs's own worker script, bundled into this one as text, and the panels' CSP allows
// `worker-src blob:` (panels/html.ts). Where no worker can start (another page's CSP, a
// browser without workers), the in-page ELK of elk.ts lays out instead: a drawing always comes.
import workerSource from 'elkjs-worker-source';
import { runElk as inPage } from './elk';

interface Job {
  message: { cmd: string; graph?: object; algorithms?: string[] };
  ok(result: unknown): void;
  fail(error: unknown): void;
}

/** Algorithms the view's layouts use: layered for levels, fixed for a Cell's wrapper. */
const ALGORITHMS = ['layered', 'fixed'];

/** The warm-up layout: two boxes and an edge, through the layered algorithm the levels use. */
const WARM_UP = {
  id: 'warm-up',
  layoutOptions: { 'elk.algorithm': 'layered' },
  children: [
    { id: 'a', width: 40, height: 20 },
    { id: 'b', width: 40, height: 20 },
  ],
  edges: [{ id: 'e', sources: ['a'], targets: ['b'] }],
};

export class ElkWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Job>();
  /** Set once the worker failed: every job from then on runs in the page. */
  private fallback = false;
  /** Set once the worker answered a layout: ELK's code is read and compiled there. */
  private answered = false;

  constructor(source: string, start: (url: string) => Worker = (url) => new Worker(url)) {
    try {
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      this.worker = start(url);
      this.worker.onmessage = (e: MessageEvent<{ id: number; data?: unknown; error?: unknown }>) =>
        this.answer(e.data);
      // A worker the page's CSP refuses, or whose script fails, reports here, not by throwing.
      this.worker.onerror = (e) => {
        e.preventDefault();
        this.fail();
      };
      this.post({ cmd: 'register', algorithms: ALGORITHMS }).catch(() => this.fail());
    } catch {
      this.fail();
    }
  }

  /**
   * Whether the worker has laid something out (its code is ready): until then the view draws
   * its first level as a stand-in at once rather than wait for the worker's start.
   */
  get warm(): boolean {
    return this.answered && !this.fallback;
  }

  /** Whether layouts run in the worker (false once it failed and the page took over). */
  get inWorker(): boolean {
    return !this.fallback;
  }

  /**
   * A first layout of two boxes while the document is still on its way: the worker reads and
   * compiles ELK's code now, not when the first real level waits for it.
   */
  warmUp(): void {
    if (this.worker && !this.fallback) this.layout(WARM_UP).catch(() => undefined);
  }

  layout<T extends object>(graph: T): Promise<T> {
    return this.post({ cmd: 'layout', graph }) as Promise<T>;
  }

  private post(message: Job['message']): Promise<unknown> {
    return new Promise((ok, fail) => {
      const job = { message, ok, fail };
      if (this.fallback || !this.worker) return this.runInPage(job);
      const id = this.nextId++;
      this.waiting.set(id, job);
      this.worker.postMessage({ ...message, id });
    });
  }

  private answer(reply: { id: number; data?: unknown; error?: unknown }): void {
    const job = this.waiting.get(reply.id);
    if (!job) return;
    this.waiting.delete(reply.id);
    if (job.message.cmd === 'layout') this.answered = true;
    if (reply.error !== undefined) job.fail(workerError(reply.error));
    else job.ok(reply.data ?? {});
  }

  /** The jobs still waiting run in the page, and so does every job after them. */
  private fail(): void {
    if (this.fallback) return;
    this.fallback = true;
    // For whoever opens the webview's developer tools: why layouts hold the page now.
    console.warn('MindScope: no layout worker could start; laying out in the page');
    this.worker?.terminate();
    this.worker = undefined;
    const jobs = [...this.waiting.values()];
    this.waiting.clear();
    for (const job of jobs) this.runInPage(job);
  }

  private runInPage(job: Job): void {
    if (job.message.cmd !== 'layout' || !job.message.graph) return job.ok(undefined);
    inPage(job.message.graph).then(
      (r) => job.ok(r),
      (e: unknown) => job.fail(e),
    );
  }
}

/** ELK's errors cross the worker as plain objects (GWT exceptions): keep their message. */
function workerError(error: unknown): Error {
  if (error instanceof Error) return error;
  const e = (error ?? {}) as { message?: unknown; g?: unknown };
  const text = typeof e.message === 'string' ? e.message : typeof e.g === 'string' ? e.g : '';
  return new Error(`ELK layout failed${text ? `: ${text}` : ''}`);
}

let shared: ElkWorker | undefined;

/**
 * Starts the page's one layout worker (if not yet): the view calls it at boot, so that the
 * worker reads ELK's 1.6 MB script while the document is still on its way.
 */
export function startElkWorker(): ElkWorker {
  if (!shared) {
    shared = new ElkWorker(workerSource);
    shared.warmUp();
  }
  return shared;
}

/** Whether the page's layout worker is started and has laid something out. */
export function elkWarm(): boolean {
  return shared?.warm ?? false;
}

export function runElkInWorker<T extends object>(graph: T): Promise<T> {
  return startElkWorker().layout(graph);
}

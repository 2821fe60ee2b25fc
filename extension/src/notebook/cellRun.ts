// Runs one cell on a kernel the way a Jupyter front-end does: execute_request on shell, iopub
// outputs of that request applied in order, stdin answered through an input box.
import * as vscode from 'vscode';
import type { JupyterMessage } from './bridgeWire';
import type { DisplayUpdates } from './displayUpdates';
import type { KernelProcess } from './kernelProcess';
import {
  bundleItems,
  displayId,
  errorContent,
  errorItemValue,
  outputMetadata,
  type OutputItemSpec,
  type OutputType,
  streamItem,
} from './mimeBundle';
import { StreamBatch, type StreamChunk } from './streamBatch';

/** Stream text is flushed to the cell at most this often. */
const STREAM_FLUSH_MS = 50;

export interface CellRunResult {
  /** True when the kernel ran the cell without an error. */
  ok: boolean;
  /** The kernel ended while the cell ran. */
  kernelDied: boolean;
}

function item(spec: OutputItemSpec): vscode.NotebookCellOutputItem {
  return new vscode.NotebookCellOutputItem(spec.data, spec.mime);
}

class CellRun {
  private readonly streams = new StreamBatch();
  private flushTimer: NodeJS.Timeout | undefined;
  private lastStream: { name: string; output: vscode.NotebookCellOutput } | undefined;
  private clearOnNext = false;
  private queue: Promise<void> = Promise.resolve();
  private executionCount: number | undefined;

  constructor(
    private readonly execution: vscode.NotebookCellExecution,
    private readonly displays: DisplayUpdates,
  ) {}

  /** Applies messages strictly in arrival order: output edits are asynchronous. */
  enqueue(work: () => Promise<void> | Thenable<void>): void {
    this.queue = this.queue.then(work).catch(() => undefined);
  }

  settled(): Promise<void> {
    return this.queue;
  }

  onIopub(msg: JupyterMessage): void {
    const content = msg.content;
    switch (msg.header.msg_type) {
      case 'execute_input':
        this.setCount(content.execution_count);
        break;
      case 'stream':
        this.streams.push(
          typeof content.name === 'string' ? content.name : 'stdout',
          typeof content.text === 'string' ? content.text : '',
        );
        this.flushTimer ??= setTimeout(() => this.cutStreams(), STREAM_FLUSH_MS);
        break;
      case 'execute_result':
      case 'display_data':
        this.cutStreams();
        this.enqueue(() => this.addRich(msg.header.msg_type as OutputType, content));
        break;
      case 'update_display_data':
        this.enqueue(() => this.updateDisplay(content));
        break;
      case 'error':
        this.cutStreams();
        this.enqueue(() => this.addError(content));
        break;
      case 'clear_output':
        this.cutStreams();
        this.enqueue(() => this.clear(content.wait === true));
        break;
    }
  }

  setCount(count: unknown): void {
    if (typeof count === 'number') {
      this.executionCount = count;
      this.execution.executionOrder = count;
    }
  }

  /** Flushes what is buffered, then waits for every queued edit. */
  async finish(): Promise<void> {
    this.cutStreams();
    await this.settled();
  }

  /**
   * Queues the text buffered so far, at the moment a message arrives: text printed after a
   * clear_output or a display must not be written before it while earlier edits are pending.
   */
  private cutStreams(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const chunks = this.streams.take();
    if (chunks.length > 0) this.enqueue(() => this.writeStreams(chunks));
  }

  private async writeStreams(chunks: StreamChunk[]): Promise<void> {
    for (const chunk of chunks) {
      await this.clearIfPending();
      const spec = streamItem(chunk.name, chunk.text);
      if (this.lastStream?.name === chunk.name) {
        await this.execution.appendOutputItems(item(spec), this.lastStream.output);
      } else {
        const output = new vscode.NotebookCellOutput([item(spec)], outputMetadata('stream', {}));
        await this.execution.appendOutput(output);
        this.lastStream = { name: chunk.name, output };
      }
    }
  }

  private async beforeOutput(): Promise<void> {
    await this.clearIfPending();
    this.lastStream = undefined;
  }

  private async addRich(kind: OutputType, content: Record<string, unknown>): Promise<void> {
    await this.beforeOutput();
    const data = (content.data ?? {}) as Record<string, unknown>;
    const metadata = outputMetadata(kind, content, this.executionCount);
    const output = new vscode.NotebookCellOutput(bundleItems(data).map(item), metadata);
    await this.execution.appendOutput(output);
    const id = displayId(content);
    if (id) this.displays.add(id, this.execution.cell, output);
  }

  private async updateDisplay(content: Record<string, unknown>): Promise<void> {
    const id = displayId(content);
    const data = (content.data ?? {}) as Record<string, unknown>;
    if (id) await this.displays.update(id, bundleItems(data).map(item), this.execution);
  }

  private async addError(content: Record<string, unknown>): Promise<void> {
    await this.beforeOutput();
    const value = errorItemValue(errorContent(content));
    const output = new vscode.NotebookCellOutput(
      [vscode.NotebookCellOutputItem.error(Object.assign(new Error(value.message), value))],
      outputMetadata('error', content),
    );
    await this.execution.appendOutput(output);
  }

  private async clear(wait: boolean): Promise<void> {
    if (wait) {
      this.clearOnNext = true;
      return;
    }
    this.clearOnNext = false;
    this.lastStream = undefined;
    await this.execution.clearOutput();
  }

  private async clearIfPending(): Promise<void> {
    if (!this.clearOnNext) return;
    this.clearOnNext = false;
    this.lastStream = undefined;
    await this.execution.clearOutput();
  }

  async addKernelDied(reason: string): Promise<void> {
    await this.finish();
    const error = { ename: 'KernelDied', evalue: reason, traceback: [] };
    await this.addError(error);
  }
}

async function answerInput(kernel: KernelProcess, msg: JupyterMessage): Promise<void> {
  const prompt = typeof msg.content.prompt === 'string' ? msg.content.prompt : '';
  const value = await vscode.window.showInputBox({
    title: 'The kernel asks for input',
    prompt: prompt || undefined,
    password: msg.content.password === true,
    ignoreFocusOut: true,
  });
  kernel.send('stdin', 'input_reply', { value: value ?? '' });
}

export async function runCell(
  kernel: KernelProcess,
  execution: vscode.NotebookCellExecution,
  code: string,
  displays: DisplayUpdates,
): Promise<CellRunResult> {
  execution.start(Date.now());
  await execution.clearOutput();
  const run = new CellRun(execution, displays);
  let requestId = '';
  // An object, not a local: the listener sets it and TypeScript does not track that.
  const seen = { idle: false };
  let wake: () => void = () => undefined;
  const ours = (msg: JupyterMessage) => msg.parent_header.msg_id === requestId;
  const subscriptions = [
    kernel.onIopub((msg) => {
      if (!ours(msg)) return;
      if (msg.header.msg_type === 'status' && msg.content.execution_state === 'idle') {
        seen.idle = true;
        wake();
      } else run.onIopub(msg);
    }),
    kernel.onStdinRequest((msg) => {
      if (ours(msg) && msg.header.msg_type === 'input_request') void answerInput(kernel, msg);
    }),
  ];
  try {
    const content = {
      code,
      silent: false,
      store_history: true,
      user_expressions: {},
      allow_stdin: true,
      stop_on_error: true,
    };
    const replyPromise = kernel.request('shell', 'execute_request', content);
    requestId = kernel.lastSentId;
    let reply: JupyterMessage;
    try {
      reply = await replyPromise;
    } catch (e) {
      await run.addKernelDied(e instanceof Error ? e.message : String(e));
      execution.end(false, Date.now());
      return { ok: false, kernelDied: true };
    }
    run.setCount(reply.content.execution_count);
    // Outputs can trail the reply: the request is done when iopub says idle.
    if (!seen.idle) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        subscriptions.push(kernel.onDidExit(() => resolve()));
      });
    }
    await run.finish();
    const ok = reply.content.status === 'ok';
    execution.end(ok, Date.now());
    return { ok, kernelDied: false };
  } finally {
    for (const s of subscriptions) s.dispose();
  }
}

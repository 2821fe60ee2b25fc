// Measures MindScope's webviews in headless Chromium, on the real bundles in dist/webview:
// graph load (document posted → folded graph on screen; and to the first drawing, the stand-in
// shown while ELK works, for the real models) and opening Cells (double-click →
// re-laid out and on screen: the first, inside it, again after folding, another) for 1k- and
// 10k-op graphs, with the per-Cell cached layout and the previous whole-graph layout side by
// side; the real .mindir files of bench/graph_models.py (mindcv models, 10k- and 50k-op stacks:
// load, open the biggest Cell, Expand all, search, peak JS heap) beside Netron 9.3.3 on the
// same files (its own venv, ~/.cache/mindscope/netron-venv); and timeline frame times for
// 100,000 events.
//
//   node extension/esbuild.mjs && node dist/bench/panel_render.js [--graph doc.json] [--runs 3]
//     [--models-only [--model NAME] [--no-netron]] [--profile MODEL]
//     [--shot graph|profile DOC OUT [--open CELL,CELL…]]
//
// `--profile MODEL` loads one of the .mindir documents, records a CPU profile (Chrome DevTools
// protocol) of opening its biggest Cell and prints the functions with the most self time.
//
// The pages load the same graph.js/profile.js as the panels, with a stand-in for
// acquireVsCodeApi that records the messages the views post.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { GraphDocument } from '../extension/src/contracts/graphDocument';
import type { ProfileDocument, TraceEvent } from '../extension/src/contracts/profileDocument';
import { chromiumPath } from '../scripts/workbench/browser';
import {
  clickButton,
  expandSession,
  firstDrawing,
  foldedCells,
  heapPeak,
  painted,
  act,
  loadGraph,
  page,
  settle,
  type BenchWindow,
  type LayoutMode,
  type Message,
  type Step,
} from '../tests/unit/fixtures/graphPage';
import { synthGraph } from '../tests/unit/fixtures/synthGraph';
import { synthStack } from '../tests/unit/fixtures/synthStack';
import { profileDocument } from '../tests/unit/fixtures/synthProfile';

/** Edge crossings, bends and area of what is on screen: to compare the two layouts' looks. */
async function looks(p: Page): Promise<{ crossings: number; bends: number; area: number }> {
  return p.evaluate(() => {
    const segs: [number, number, number, number][] = [];
    let bends = 0;
    for (const path of Array.from(document.querySelectorAll('path.edge'))) {
      const pts = (path.getAttribute('d') ?? '')
        .split(/[ML]/)
        .filter(Boolean)
        .map((xy) => xy.split(',').map(Number));
      bends += Math.max(0, pts.length - 2);
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1] ?? [0, 0];
        const b = pts[i] ?? [0, 0];
        segs.push([a[0] ?? 0, a[1] ?? 0, b[0] ?? 0, b[1] ?? 0]);
      }
    }
    const cross = (s: number[], t: number[]): boolean => {
      const [ax, ay, bx, by] = s as [number, number, number, number];
      const [cx, cy, dx, dy] = t as [number, number, number, number];
      const o = (px: number, py: number, qx: number, qy: number, rx: number, ry: number): number =>
        Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
      return (
        o(ax, ay, bx, by, cx, cy) * o(ax, ay, bx, by, dx, dy) < 0 &&
        o(cx, cy, dx, dy, ax, ay) * o(cx, cy, dx, dy, bx, by) < 0
      );
    };
    let crossings = 0;
    for (let i = 0; i < segs.length; i++)
      for (let j = i + 1; j < segs.length; j++)
        if (cross(segs[i] ?? [], segs[j] ?? [])) crossings++;
    const box = document.querySelector<SVGGElement>('g.graph')?.getBBox();
    return { crossings, bends, area: box ? box.width * box.height : NaN };
  });
}

function synthProfile(events: number): ProfileDocument {
  const types = ['Conv2D', 'BatchNorm', 'ReLU', 'Add', 'MatMul', 'Softmax', 'LayerNorm', 'GeLU'];
  const timeline: TraceEvent[] = [
    { ph: 'M', name: 'process_name', pid: 2, tid: 0, args: { name: 'CPU ops' } },
  ];
  let ts = 0;
  for (let i = 0; i < events; i++) {
    const type = types[i % types.length] ?? 'Op';
    const dur = 2 + ((i * 7919) % 40);
    timeline.push({
      ph: 'X',
      name: `Default/layer${i % 97}/${type}-op${i % 13}`,
      pid: 2,
      tid: i % 2,
      ts,
      dur,
    });
    ts += dur * 0.6 + 1;
  }
  return profileDocument(
    { target: `synthetic:${events}` },
    {
      totals: { opMs: ts / 1000, meanStepMs: ts / 1000, steps: 1, opRows: 0 },
      timeline: { unit: 'us', events: timeline },
    },
  );
}

/** Wheel-zooms in and out and pans with drags; frame = one timeline draw (user timing). */
async function timelineFrames(p: Page, url: string, doc: ProfileDocument): Promise<number[]> {
  await p.goto(url);
  await p.waitForFunction(
    () => (window as unknown as { __messages: Message[] }).__messages.length > 0,
  );
  await p.evaluate((d) => window.postMessage({ type: 'load', doc: d, title: 'bench' }, '*'), doc);
  await p.waitForSelector('canvas.timeline-canvas');
  const box = await p.locator('canvas.timeline-canvas').boundingBox();
  if (!box) throw new Error('no timeline canvas');
  await p.evaluate(() => performance.clearMeasures('mindscope:timeline-frame'));
  const cx = box.x + box.width * 0.6;
  const cy = box.y + box.height / 2;
  await p.mouse.move(cx, cy);
  for (let i = 0; i < 30; i++) await p.mouse.wheel(0, -120);
  for (let i = 0; i < 30; i++) await p.mouse.wheel(0, 120);
  await p.mouse.down();
  for (let i = 0; i < 30; i++) await p.mouse.move(cx - i * 10, cy);
  await p.mouse.up();
  await p.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(null))));
  return p.evaluate(() =>
    performance.getEntriesByName('mindscope:timeline-frame').map((e) => e.duration),
  );
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f: number): number => s[Math.min(s.length - 1, Math.floor(f * s.length))] ?? NaN;
  return `median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(1)} ms (${s.length} frames)`;
}

function quantile(xs: number[], f: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(f * s.length))] ?? NaN;
}

const median = (xs: number[]): number => quantile(xs, 0.5);
const ms = (x: number): string => `${x.toFixed(0)} ms`;

interface ModeResult {
  loads: number[];
  steps: Step[];
  /** Long tasks after the load's own. */
  longTasks: number[];
  looks: { crossings: number; bends: number; area: number } | undefined;
}

async function benchGraph(
  p: Page,
  dir: string,
  doc: GraphDocument,
  runs: number,
): Promise<Record<LayoutMode, ModeResult>> {
  const out: Record<LayoutMode, ModeResult> = {
    levels: { loads: [], steps: [], longTasks: [], looks: undefined },
    whole: { loads: [], steps: [], longTasks: [], looks: undefined },
  };
  // Alternate the two layouts run by run: a busy machine then slows both alike.
  for (let r = 0; r < runs; r++) {
    for (const mode of ['levels', 'whole'] as const) {
      const res = out[mode];
      for (const settled of [false, true]) {
        res.loads.push(await loadGraph(p, page(dir, 'graph', mode), doc));
        res.steps.push(...(await expandSession(p, settled)));
        if (settled) await settle(p);
        res.longTasks.push(
          ...(await p.evaluate(() => {
            const w = window as unknown as BenchWindow;
            const loaded = w.__painted[0] ?? 0;
            return w.__long.filter(([start]) => start > loaded).map(([, d]) => d);
          })),
        );
      }
      res.looks ??= await looks(p);
    }
  }
  return out;
}

function report(name: string, doc: GraphDocument, res: Record<LayoutMode, ModeResult>): void {
  const line = (mode: LayoutMode): Record<string, number> => {
    const { loads, steps } = res[mode];
    const opens = steps.filter((s) => !s.name.startsWith('fold'));
    const pick = (n: string): number[] => steps.filter((s) => s.name === n).map((s) => s.ms);
    const all = opens.map((s) => s.ms);
    return {
      load: median(loads),
      first: median(pick('first open')),
      firstSettled: median(pick('first open, settled')),
      openMedian: median(all),
      openP95: quantile(all, 0.95),
      inside: median(pick('open inside')),
      insideSettled: median(pick('open inside, settled')),
      reopen: median([...pick('reopen'), ...pick('reopen, settled')]),
      another: median(pick('open another')),
      anotherSettled: median(pick('open another, settled')),
      visible: Math.max(0, ...steps.map((s) => s.visible)),
    };
  };
  const a = line('levels');
  const b = line('whole');
  console.log(
    `graph ${name}: ${doc.meta.counts.computeOps} compute ops, ${doc.nodes.length} nodes, up to ${a.visible} visible items`,
  );
  const rows: [string, keyof typeof a][] = [
    ['load (folded, to screen)', 'load'],
    ['first open, at once', 'first'],
    ['first open, settled', 'firstSettled'],
    ['open inside it, at once', 'inside'],
    ['open inside it, settled', 'insideSettled'],
    ['reopen after fold', 'reopen'],
    ['open another, at once', 'another'],
    ['open another, settled', 'anotherSettled'],
    ['every open: median', 'openMedian'],
    ['every open: p95', 'openP95'],
  ];
  console.log(`  ${''.padEnd(28)}${'levels'.padStart(9)}${'whole'.padStart(9)}   levels/whole`);
  for (const [label, k] of rows) {
    if (Number.isNaN(a[k]) && Number.isNaN(b[k])) continue;
    console.log(
      `  ${label.padEnd(28)}${ms(a[k] ?? NaN).padStart(9)}${ms(b[k] ?? NaN).padStart(9)}   ${((a[k] ?? NaN) / (b[k] ?? NaN)).toFixed(2)}`,
    );
  }
  for (const mode of ['levels', 'whole'] as const) {
    const opens = res[mode].steps.filter((s) => !s.name.startsWith('fold'));
    const split = [0, 1, 2].map((i) => median(opens.map((s) => s.split[i] ?? NaN)));
    const over = opens.filter((s) => s.ms > 300).length;
    const l = res[mode].looks;
    console.log(
      `  ${mode}: opens split fold/layout/draw ${split.map(ms).join(' / ')} (medians); ` +
        `${over} of ${opens.length} opens over 300 ms; ` +
        `long tasks after load: ${res[mode].longTasks.length}, longest ${ms(Math.max(0, ...res[mode].longTasks))}; ` +
        `last view ${l?.crossings ?? '?'} crossings, ` +
        `${l?.bends ?? '?'} bends, ${((l?.area ?? NaN) / 1e6).toFixed(2)} Mpx²`,
    );
  }
}

const CACHE = path.join(os.homedir(), '.cache', 'mindscope', 'bench');
const MODELS = ['resnet50', 'vit_b_16_224', 'mobilenet_v3_large_100', 'stack10k', 'stack50k'];
const NETRON = path.join(os.homedir(), '.cache', 'mindscope', 'netron-venv', 'bin', 'netron');

interface ModelResult {
  load: number;
  /** From the post to the first drawing on screen: the stand-in, or the real one if sooner. */
  first: number;
  open: number;
  expandAll: number;
  search: number;
  heapMB: number;
  n: number;
  /** Where the load went: joining + parsing the parts, indexing, the first drawing. */
  loadSplit: [number, number, number];
}

/** Load, open the biggest Cell, Expand all, search one op by name; peak JS heap throughout. */
async function benchModel(p: Page, dir: string, doc: GraphDocument): Promise<ModelResult> {
  const heap = await heapPeak(p);
  const load = await loadGraph(p, page(dir, 'graph'), doc);
  const first = await firstDrawing(p);
  const loadSplit = await p.evaluate(() =>
    ['parse', 'index', 'fold', 'layout', 'draw'].map((k) =>
      performance.getEntriesByName(`mindscope:graph-${k}`).reduce((a, e) => a + e.duration, 0),
    ),
  );
  const [parse = NaN, index = NaN, ...render] = loadSplit;
  let n = 1;
  const [biggest] = await foldedCells(p);
  const open = biggest ? (await act(p, ++n, 'open', 'open', biggest)).ms : NaN;
  const expandAll = await clickButton(p, ++n, 'Expand all');
  const compute = doc.nodes.filter((x) => x.category === 'compute');
  const op = compute[Math.floor(compute.length / 3)];
  const t0 = await p.evaluate((q) => {
    const box = document.querySelector<HTMLInputElement>('input.search');
    if (!box) throw new Error('no search box');
    const start = performance.now();
    box.value = q;
    box.dispatchEvent(new Event('input'));
    return start;
  }, op?.fullName ?? '');
  const search = (await painted(p, ++n)).at - t0;
  return {
    load,
    first,
    open,
    expandAll,
    search,
    heapMB: (await heap.stop()) / 2 ** 20,
    n,
    loadSplit: [parse, index, render.reduce((a, b) => a + b, 0)],
  };
}

/** Netron 9.3.3 on 127.0.0.1 serving `file`: from opening its page to its first drawn graph.
 * Netron replaces `window.eval` (so playwright's evaluate and waitForSelector fail once its
 * scripts run), asks for cookie consent on a first visit (a returning user's cookie is set),
 * and measures every node in the DOM before laying out: the graph is drawn when the page
 * leaves its spinner for `default` with nodes in it. An init script, which runs before
 * Netron's own, watches for that and reports through the console. */
async function netronFirstGraph(browser: Browser, file: string, port: number): Promise<string> {
  if (!fs.existsSync(NETRON)) return 'not installed';
  const server = spawn(NETRON, ['--host', '127.0.0.1', '--port', String(port), file], {
    stdio: 'ignore',
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const url = `http://127.0.0.1:${port}/`;
  await context.addCookies([{ name: 'consent', value: String(Date.now()), url }]);
  const p = await context.newPage();
  await p.addInitScript(() => {
    const report = console.log.bind(console);
    const poll = (): void => {
      const body = document.body as HTMLElement | null;
      if (body?.className === 'default' && document.querySelector('svg g.node'))
        report(`mindscope-netron-drawn ${performance.now()}`);
      else if (body?.classList.contains('notification') && !body.classList.contains('spinner'))
        report(`mindscope-netron-message ${document.querySelector('.message')?.textContent ?? ''}`);
      else setTimeout(poll, 50);
    };
    poll();
  });
  const outcome = new Promise<string>((ok) => {
    p.on('crash', () => ok('tab crashed'));
    p.on('console', (m) => {
      const [tag, ...rest] = m.text().split(' ');
      if (tag === 'mindscope-netron-drawn') ok(Number(rest[0]).toFixed(0));
      if (tag === 'mindscope-netron-message') ok(`no graph (${rest.join(' ').slice(0, 40)})`);
    });
    setTimeout(() => ok('no graph in 150 s'), 150_000);
  });
  try {
    for (let i = 0; i < 100; i++) {
      const up = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    // performance.now() in the page counts from its navigation: the time to the drawing.
    const heap = await heapPeak(p, 500);
    await p.goto(url);
    const result = await outcome;
    // A tab still busy with a big model may never answer CDP again: do not wait on it.
    const peak = (await within(heap.stop(), 10_000, NaN)) / 2 ** 20;
    return Number.isNaN(Number(result)) ? `${result}, heap ${peak.toFixed(0)} MB` : result;
  } catch (e) {
    return `no graph (${String(e).split('\n')[0]?.slice(0, 60)})`;
  } finally {
    await within(
      context.close().catch(() => undefined),
      10_000,
      undefined,
    );
    server.kill('SIGKILL');
  }
}

/** `promise`, or `fallback` once `ms` have passed without it settling. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((ok) => setTimeout(() => ok(fallback), ms))]);
}

/** The load averages over 1, 5 and 15 minutes, as `uptime` prints them. */
function loadLine(): string {
  return `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`;
}

async function realModels(
  browser: Browser,
  p: Page,
  dir: string,
  only: string | undefined,
  withNetron = true,
): Promise<void> {
  console.log(`  (${loadLine()} at the start)`);
  console.log(
    `\nreal .mindir files (bench/graph_models.py, random weights), one run each; Netron 9.3.3 ` +
      `on the same file: time to its first drawn graph`,
  );
  console.log(
    `  ${'model'.padEnd(24)}${'ops'.padStart(8)}${'load'.padStart(8)}${'first'.padStart(8)}${'open'.padStart(8)}` +
      `${'expand'.padStart(8)}${'search'.padStart(8)}${'heap'.padStart(9)}${'Netron'.padStart(34)}   Netron/load     load: parse/index/draw`,
  );
  // MindScope's rows first, then Netron on each file: a closing Netron tab (a 350 MB model)
  // keeps the browser busy for seconds and would slow the next MindScope row.
  const names = MODELS.filter((m) => !only || m === only);
  const ours = new Map<string, { doc: GraphDocument; r: ModelResult }>();
  for (const name of names) {
    const json = path.join(CACHE, `${name}.json`);
    if (!fs.existsSync(json)) continue;
    const doc = JSON.parse(fs.readFileSync(json, 'utf8')) as GraphDocument;
    ours.set(name, { doc, r: await benchModel(p, dir, doc) });
  }
  // The memory test's 50k-op stack document (no .mindir: Netron has nothing to open), beside
  // the real composed stack50k.mindir.
  const synthDoc = only ? undefined : synthStack(10, 50, 25, 600);
  const synth = synthDoc && { doc: synthDoc, r: await benchModel(p, dir, synthDoc) };
  let port = 18_780;
  for (const name of names) {
    const mindir = path.join(CACHE, `${name}.mindir`);
    const netron =
      withNetron && fs.existsSync(mindir) ? await netronFirstGraph(browser, mindir, port++) : '-';
    const row = ours.get(name);
    if (row) modelRow(name, row.doc, row.r, netron);
    else
      // A .mindir without a document (the runtime's reader could not finish it): Netron alone.
      console.log(
        `  ${name}: no graph document (run .venv/bin/python bench/graph_models.py)` +
          (netron ? `; Netron on the .mindir: ${netron}` : ''),
      );
  }
  if (synth) modelRow('stack50k (synthetic doc)', synth.doc, synth.r, '-');
  console.log(`  (${loadLine()} at the end)`);
}

function modelRow(name: string, doc: GraphDocument, r: ModelResult, netron: string): void {
  const ratio = Number(netron) / r.load;
  console.log(
    `  ${name.padEnd(24)}${String(doc.meta.counts.computeOps).padStart(8)}${ms(r.load).padStart(8)}${ms(r.first).padStart(8)}` +
      `${ms(r.open).padStart(8)}${ms(r.expandAll).padStart(8)}${ms(r.search).padStart(8)}` +
      `${`${r.heapMB.toFixed(0)} MB`.padStart(9)}${(Number.isNaN(Number(netron)) ? netron : `${netron} ms`).padStart(34)}` +
      `   ${(Number.isNaN(ratio) ? '-' : `${ratio.toFixed(1)}×`).padEnd(11)}` +
      `   ${r.loadSplit.map(ms).join(' / ')}`,
  );
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** CPU profile of opening `name`'s biggest Cell: the top functions by self time. */
/** Prints the functions with the most self time in a CPU profile. */
function topSelf(
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] },
  count = 20,
): void {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    const where = f
      ? `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}`
      : '?';
    self.set(where, (self.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  for (const [where, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`  ${ms(t).padStart(8)}  ${where}`);
}

/** CPU profiles of loading `name`'s document, opening its biggest Cell at once, Expand all. */
async function profileOpen(p: Page, dir: string, name: string): Promise<void> {
  const doc =
    name === 'synth50k'
      ? synthStack(10, 50, 25, 600)
      : name === 'synth10k'
        ? synthStack(5, 20, 25)
        : (JSON.parse(fs.readFileSync(path.join(CACHE, `${name}.json`), 'utf8')) as GraphDocument);
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const stop = async (): Promise<Profile> =>
    ((await cdp.send('Profiler.stop')) as { profile: Profile }).profile;
  await cdp.send('Profiler.start');
  const load = await loadGraph(p, page(dir, 'graph'), doc);
  const split = await p.evaluate(() =>
    ['parse', 'index', 'fold', 'layout', 'draw'].map(
      (k) => `${k} ${performance.getEntriesByName(`mindscope:graph-${k}`)[0]?.duration.toFixed(0)}`,
    ),
  );
  console.log(
    `${name}: load ${ms(load)} (${split.join(', ')} ms); top self time (with the page's start):`,
  );
  topSelf(await stop());
  // At once, as benchModel opens it: the idle prefetch may not have laid it out yet.
  const [biggest] = await foldedCells(p);
  if (!biggest) throw new Error(`${name}: no folded Cell`);
  await cdp.send('Profiler.start');
  const step = await act(p, 2, 'open', 'open', biggest);
  console.log(
    `${name}: open ${biggest}: ${ms(step.ms)} (fold/layout/draw ${step.split.map(ms).join(' / ')}); top self time:`,
  );
  topSelf(await stop());
  await cdp.send('Profiler.start');
  const all = await clickButton(p, 3, 'Expand all');
  const allSplit = await p.evaluate(() =>
    ['fold', 'layout', 'draw'].map((k) =>
      performance.getEntriesByName(`mindscope:graph-${k}`).reduce((a, e) => a + e.duration, 0),
    ),
  );
  console.log(
    `${name}: Expand all: ${ms(all)} (fold/layout/draw since the open ${allSplit.map(ms).join(' / ')}); top self time:`,
  );
  topSelf(await stop());
  await cdp.detach();
}

/**
 * `--shot graph|profile DOC OUT [--open CELL,CELL…]`: a PNG of the panel on a document, for the
 * docs and the issue (the graph with the listed Cells opened, in order).
 */
async function shot(p: Page, dir: string, args: string[]): Promise<void> {
  const [kind, file = '', out = ''] = args.slice(args.indexOf('--shot') + 1);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as GraphDocument & ProfileDocument;
  if (kind === 'graph') {
    await loadGraph(p, page(dir, 'graph'), doc);
    const opens = args.includes('--open') ? (args[args.indexOf('--open') + 1] ?? '') : '';
    let n = 1;
    for (const id of opens.split(',').filter(Boolean)) {
      await settle(p);
      await act(p, ++n, 'open', 'open', id);
    }
    await settle(p);
  } else {
    await p.goto(page(dir, 'profile'));
    await p.waitForFunction(
      () => (window as unknown as { __messages: Message[] }).__messages.length > 0,
    );
    await p.evaluate((d) => window.postMessage({ type: 'load', doc: d, title: 'ViT' }, '*'), doc);
    await p.waitForSelector('table');
    await p.waitForTimeout(1000);
  }
  await p.screenshot({ path: out });
  console.log(`${kind} panel on ${file} → ${out}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runs = Number(args[args.indexOf('--runs') + 1] ?? 3) || 3;
  const extra = args.includes('--graph') ? args[args.indexOf('--graph') + 1] : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-bench-'));
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
  const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  if (args.includes('--shot')) {
    await shot(p, dir, args);
    await browser.close();
    return;
  }
  if (args.includes('--profile')) {
    await profileOpen(p, dir, args[args.indexOf('--profile') + 1] ?? '');
    await browser.close();
    return;
  }
  const graphs: [string, GraphDocument][] = [
    ['1k ops (1×45 layers)', synthGraph(1, 45)],
    ['10k ops (5×91 layers)', synthGraph(5, 91)],
  ];
  if (extra)
    graphs.unshift([
      path.basename(extra),
      JSON.parse(fs.readFileSync(extra, 'utf8')) as GraphDocument,
    ]);
  console.log(
    `MindScope panel benchmark — headless Chromium, ${os.cpus().length} cores, load average ` +
      `${os.loadavg()[0]?.toFixed(1)}, ${runs} runs per layout; times to the drawing on screen`,
  );
  if (!args.includes('--models-only'))
    for (const [name, doc] of graphs) report(name, doc, await benchGraph(p, dir, doc, runs));
  const only = args.includes('--model') ? args[args.indexOf('--model') + 1] : undefined;
  await realModels(browser, p, dir, only, !args.includes('--no-netron'));
  if (args.includes('--models-only')) {
    await browser.close();
    return;
  }
  const frames = await timelineFrames(p, page(dir, 'profile'), synthProfile(100_000));
  console.log(`timeline 100,000 events: frame ${stats(frames)}`);
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

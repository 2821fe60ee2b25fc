// Measures MindScope's webviews in headless Chromium, on the real bundles in dist/webview:
// graph load (bundle start → first drawing) and expand (one Cell opened → re-laid out and
// drawn) for 1k- and 10k-op graphs, and timeline frame times for 100,000 events.
//
//   node extension/esbuild.mjs && node dist/bench/panel_render.js [--graph doc.json] [--runs 3]
//
// The pages load the same graph.js/profile.js as the panels, with a stand-in for
// acquireVsCodeApi that records the messages the views post.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { GraphDocument } from '../extension/src/contracts/graphDocument';
import type { ProfileDocument, TraceEvent } from '../extension/src/contracts/profileDocument';
import { chromiumPath } from '../scripts/workbench/browser';
import { synthGraph } from '../tests/unit/fixtures/synthGraph';

const REPO = path.resolve(__dirname, '..', '..');
const WEBVIEW = path.join(REPO, 'dist', 'webview');

const STUB = `<script>
window.__messages = [];
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__messages.push({ at: performance.now(), ...m }),
  getState: () => undefined,
  setState: () => undefined,
});
</script>`;

function page(dir: string, bundle: 'graph' | 'profile'): string {
  const file = path.join(dir, `${bundle}.html`);
  fs.writeFileSync(
    file,
    `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="file://${WEBVIEW}/${bundle}.css">
<style>html,body,#root{height:100%;margin:0}</style>${STUB}</head>
<body><div id="root"></div><script src="file://${WEBVIEW}/${bundle}.js"></script></body></html>`,
  );
  return `file://${file}`;
}

interface Message {
  at: number;
  type: string;
  visibleNodes?: number;
  layoutMs?: number;
}

async function messages(p: Page): Promise<Message[]> {
  return p.evaluate(() => (window as unknown as { __messages: Message[] }).__messages);
}

async function waitRendered(p: Page, count: number): Promise<Message> {
  await p.waitForFunction(
    (n) =>
      (window as unknown as { __messages: Message[] }).__messages.filter(
        (m) => m.type === 'rendered',
      ).length >= n,
    count,
    { timeout: 120_000 },
  );
  const rendered = (await messages(p)).filter((m) => m.type === 'rendered');
  const last = rendered[count - 1];
  if (!last) throw new Error('no rendered message');
  return last;
}

/** Posts the document; load time = from the post to the first drawing on screen. */
async function loadGraph(p: Page, url: string, doc: GraphDocument): Promise<number> {
  await p.goto(url);
  await p.waitForFunction(
    () => (window as unknown as { __messages: Message[] }).__messages.length > 0,
  );
  const t0 = await p.evaluate((d) => {
    const start = performance.now();
    window.postMessage({ type: 'load', doc: d, title: 'bench' }, '*');
    return start;
  }, doc);
  const r = await waitRendered(p, 1);
  await p.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(null))));
  return r.at - t0;
}

/** Double-clicks the folded Cell with the most ops and times the re-layout and drawing. */
async function expandOne(
  p: Page,
  rendersSoFar: number,
  pick: string,
): Promise<{ ms: number; layoutMs: number; visible: number }> {
  const t0 = await p.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) throw new Error(`no ${sel}`);
    const start = performance.now();
    el.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    return start;
  }, pick);
  const r = await waitRendered(p, rendersSoFar + 1);
  return { ms: r.at - t0, layoutMs: r.layoutMs ?? 0, visible: r.visibleNodes ?? 0 };
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
  return {
    kind: 'mindscope.profile',
    version: 1,
    meta: {
      mindsporeVersion: '2.10.0',
      mode: 'GRAPH_MODE',
      syntaxLevel: 'LAX',
      device: 'CPU',
      target: `synthetic:${events}`,
      inputs: [],
      steps: 1,
      warmup: 1,
      scopeAttribution: 'mindspore',
      timeOriginUs: 0,
    },
    ops: [],
    byType: [],
    byCell: [],
    steps: [],
    totals: { opMs: ts / 1000, meanStepMs: ts / 1000, steps: 1, opRows: 0 },
    timeline: { unit: 'us', events: timeline },
    memory: null,
  };
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
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
  const graphUrl = page(dir, 'graph');
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
    `MindScope panel benchmark — headless Chromium, ${os.cpus().length} cores, median of ${runs} runs`,
  );
  for (const [name, doc] of graphs) {
    const loads: number[] = [];
    const expands: number[] = [];
    const layouts: number[] = [];
    let visible = 0;
    for (let r = 0; r < runs; r++) {
      loads.push(await loadGraph(p, graphUrl, doc));
      // Open the biggest folded Cell, then the first folded Cell inside it.
      const first = await expandOne(p, 1, 'g.node.scope[data-id$="CellList"], g.node.scope');
      const second = await expandOne(p, 2, 'g.node.scope');
      expands.push(first.ms, second.ms);
      layouts.push(first.layoutMs, second.layoutMs);
      visible = Math.max(visible, first.visible, second.visible);
    }
    console.log(
      `graph ${name}: ${doc.meta.counts.computeOps} compute ops, ${doc.nodes.length} nodes — ` +
        `load (folded) ${median(loads).toFixed(0)} ms; expand one Cell ${median(expands).toFixed(0)} ms ` +
        `(layout ${median(layouts).toFixed(0)} ms, up to ${visible} visible items)`,
    );
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

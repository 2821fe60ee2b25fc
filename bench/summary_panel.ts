// The training dashboard in headless Chromium, on the real dist/webview/summary.js: load time
// (document posted → every chart drawn) and pan/zoom frame times for 10 runs × 100,000 points
// of one tag, against the same charts drawn from every point (no downsampling) in the same run.
//
//   node extension/esbuild.mjs && node dist/bench/summary_panel.js [--points 100000] [--runs 10]
//   node dist/bench/summary_panel.js --doc summary.json --screenshot media/summary-dashboard.png
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { SummaryDocument } from '../extension/src/contracts/summaryDocument';
import { chromiumPath } from '../scripts/workbench/browser';
import { synthSummary } from '../tests/unit/fixtures/synthSummary';

const REPO = path.resolve(__dirname, '..', '..');
const WEBVIEW = path.join(REPO, 'dist', 'webview');
const STUB = `<script>
window.__messages = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__messages.push(m),
  getState: () => undefined, setState: () => undefined });
</script>`;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function page(dir: string): string {
  const file = path.join(dir, 'summary.html');
  fs.writeFileSync(
    file,
    `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="file://${WEBVIEW}/summary.css">${STUB}</head>
<body><div id="root"></div><script src="file://${WEBVIEW}/summary.js"></script></body></html>`,
  );
  return `file://${file}`;
}

interface ViewHandle {
  mindscopeSummary?: {
    charts: Map<
      string,
      {
        lastDrawMs: number;
        downsampling: boolean;
        zoomAt(at: number, f: number): void;
        panBy(dx: number): void;
        resetZoom(): void;
        draw(): void;
      }
    >;
  };
}

async function load(p: Page, url: string, doc: SummaryDocument): Promise<number> {
  await p.goto(url);
  await p.waitForFunction(
    () => (window as unknown as { __messages: unknown[] }).__messages.length > 0,
  );
  return p.evaluate(async (d) => {
    const start = performance.now();
    window.postMessage({ type: 'load', doc: d, state: { root: d.meta.root, title: 'bench' } }, '*');
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const view = (window as unknown as ViewHandle).mindscopeSummary;
        const charts = view ? [...view.charts.values()] : [];
        if (charts.length && charts.every((c) => c.lastDrawMs > 0)) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
    return performance.now() - start;
  }, doc);
}

/** Frame times (ms, sorted) of a session on the first chart: from the whole range, 10 zooms in,
 * 10 pans, 10 zooms out, each drawn synchronously. `every`: draw every point (the peer). */
async function session(p: Page, points: number, every: boolean): Promise<number[]> {
  return p.evaluate(
    ({ points, every }) => {
      const chart = [
        ...((window as unknown as ViewHandle).mindscopeSummary?.charts.values() ?? []),
      ][0];
      if (!chart) throw new Error('no chart');
      chart.downsampling = !every;
      chart.resetZoom();
      const out: number[] = [];
      const frame = (change: () => void): void => {
        const start = performance.now();
        change();
        chart.draw();
        out.push(performance.now() - start);
      };
      for (let i = 0; i < 10; i++) frame(() => chart.zoomAt(points / 2, 0.8));
      for (let i = 0; i < 10; i++) frame(() => chart.panBy(points / 200));
      for (let i = 0; i < 10; i++) frame(() => chart.zoomAt(points / 2, 1.25));
      return out.sort((a, b) => a - b);
    },
    { points, every },
  );
}

async function main(): Promise<void> {
  const runs = Number(arg('--runs') ?? 10);
  const points = Number(arg('--points') ?? 100_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-summary-bench-'));
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true,
    args: ['--no-sandbox', '--disable-gpu'] }); // prettier-ignore
  try {
    const p = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const docFile = arg('--doc');
    if (docFile) {
      const doc = JSON.parse(fs.readFileSync(docFile, 'utf8')) as SummaryDocument;
      await load(p, page(dir), doc);
      const shot = arg('--screenshot');
      if (shot) await p.screenshot({ path: shot, fullPage: false });
      console.log(`screenshot of ${docFile} → ${shot ?? '(none)'}`);
      return;
    }
    const doc = synthSummary(runs, points);
    const url = page(dir);
    const loadMs = await load(p, url, doc);
    await session(p, points, false); // warm-up: the first draws compile the drawing code
    const frames = await session(p, points, false);
    const full = await session(p, points, true);
    const pct = (a: number[], q: number): number =>
      a[Math.min(a.length - 1, Math.floor(a.length * q))] ?? NaN;
    const show = (name: string, f: number[]): string =>
      `${name}: frame median ${pct(f, 0.5).toFixed(1)} ms, p95 ${pct(f, 0.95).toFixed(1)} ms`;
    console.log(
      `summary dashboard, ${runs} series × ${points} points, zoom/pan session of 30 frames:`,
    );
    console.log(`  load (post → drawn, includes the structured clone) ${loadMs.toFixed(0)} ms`);
    console.log(`  ${show('MindScope (downsampled drawing)', frames)}`);
    console.log(`  ${show('peer: same chart drawing every point', full)}`);
    console.log(
      `  ratio (peer / MindScope, median frame): ${(pct(full, 0.5) / pct(frames, 0.5)).toFixed(1)}x`,
    );
  } finally {
    await browser.close();
  }
}

void main();

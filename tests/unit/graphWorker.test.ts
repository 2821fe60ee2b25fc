// The graph layout off the page's thread: ELK runs in a Web Worker made from its bundled script
// text under the panels' real CSP (`worker-src blob:`), falls back to the page when no worker
// can start, and a slow layout shows a busy state and a stand-in drawing before the real one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { GraphDocument } from '../../extension/src/contracts/graphDocument';
import { contentSecurityPolicy } from '../../extension/src/panels/html';
import { ElkWorker } from '../../extension/webview/graph/layout/elkWorker';
import { expandWithin, initialExpansion, visibleGraph } from '../../extension/webview/graph/fold';
import { LevelLayouter } from '../../extension/webview/graph/layout/layoutLevels';
import { runElk } from '../../extension/webview/graph/layout/elk';
import { itemSize } from '../../extension/webview/graph/layout/layoutInput';
import { indexGraph } from '../../extension/webview/graph/model';
import { chromiumPath } from '../../scripts/workbench/browser';
import { clickButton, loadGraph, page, painted, type BenchWindow } from './fixtures/graphPage';
import { graphDocument, layer, op, scope, synthGraph, type Builder } from './fixtures/synthGraph';

const tiny = {
  id: 'root',
  layoutOptions: { 'elk.algorithm': 'layered' },
  children: [
    { id: 'a', width: 40, height: 20 },
    { id: 'b', width: 40, height: 20 },
  ],
  edges: [{ id: 'e0', sources: ['a'], targets: ['b'] }],
};

/** A stand-in Worker: records what is posted, and lets the test answer or fail. */
class FakeWorker {
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  posted: { id: number; cmd: string }[] = [];
  terminated = false;
  postMessage(m: { id: number; cmd: string }): void {
    this.posted.push(m);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: unknown): void {
    this.onmessage?.({ data } as MessageEvent);
  }
  error(): void {
    this.onerror?.({ preventDefault: () => undefined } as unknown as ErrorEvent);
  }
}

test('layouts go to the worker and come back by id', async () => {
  const fake = new FakeWorker();
  const elk = new ElkWorker('/* worker */', () => fake as unknown as Worker);
  assert.equal(fake.posted[0]?.cmd, 'register');
  const done = elk.layout(tiny);
  const job = fake.posted[1];
  assert.ok(job?.cmd === 'layout');
  fake.reply({ id: job.id, data: { id: 'root', laidOut: true } });
  assert.deepEqual(await done, { id: 'root', laidOut: true });
  assert.ok(elk.inWorker);
});

test('the worker is warm once it answered a layout; warmUp lays out two boxes at boot', () => {
  const fake = new FakeWorker();
  const elk = new ElkWorker('/* worker */', () => fake as unknown as Worker);
  elk.warmUp();
  const warmUp = fake.posted[1];
  assert.ok(warmUp?.cmd === 'layout', 'a first layout is posted at once');
  assert.equal(elk.warm, false, 'not warm before the worker answered');
  fake.reply({ id: fake.posted[0]?.id, data: {} });
  assert.equal(elk.warm, false, 'registering is not a layout');
  fake.reply({ id: warmUp.id, data: { id: 'warm-up' } });
  assert.equal(elk.warm, true);
  fake.error();
  assert.equal(elk.warm, false, 'a failed worker is not warm: the page lays out');
});

test("ELK's error in the worker rejects that layout with its message", async () => {
  const fake = new FakeWorker();
  const elk = new ElkWorker('', () => fake as unknown as Worker);
  const done = elk.layout(tiny);
  fake.reply({ id: fake.posted[1]?.id, error: { message: 'bad port' } });
  await assert.rejects(done, /ELK layout failed: bad port/);
});

test('a worker that fails to start hands its waiting layouts to the page', async () => {
  const fake = new FakeWorker();
  const elk = new ElkWorker('', () => fake as unknown as Worker);
  const waiting = elk.layout(tiny);
  fake.error();
  assert.ok(fake.terminated);
  assert.equal(elk.inWorker, false);
  const [a, b] = ((await waiting) as { children: { x?: number; y?: number }[] }).children;
  assert.ok(a?.x !== undefined && b?.x !== undefined, 'laid out in the page');
  assert.notDeepEqual([a.x, a.y], [b.x, b.y]);
});

test('where no worker can be made at all, the page lays out', async () => {
  const elk = new ElkWorker('', () => {
    throw new Error('SecurityError: refused by CSP');
  });
  assert.equal(elk.inWorker, false);
  const out = (await elk.layout(tiny)) as { width?: number };
  assert.ok((out.width ?? 0) > 0);
});

test('the stand-in layout places every item without ELK and keeps nothing', async () => {
  const index = indexGraph(synthGraph(1, 12));
  // Everything open: levels with branches, which only ELK lays out for real.
  const graph = visibleGraph(index, expandWithin(index, initialExpansion(index), 600));
  const elkRuns = { count: 0 };
  const layouter = new LevelLayouter((g) => {
    elkRuns.count++;
    return runElk(g);
  });
  const items = new Map(graph.items.map((i) => [i.id, i]));
  const size = (id: string): { width: number; height: number } => {
    const item = items.get(id);
    return item ? itemSize(index, item) : { width: 80, height: 40 };
  };
  const quick = await layouter.provisional(graph, size);
  // (read through a function: assert.equal narrows the count to 0 for the checker)
  const runs = (): number => elkRuns.count;
  assert.equal(runs(), 0);
  for (const item of graph.items) assert.ok(quick.items.has(item.id), item.id);
  // Nothing the stand-in made stands in for ELK later.
  await layouter.layout(graph, size);
  assert.ok(runs() > 0);
});

/** One encoder layer: its first view (attention, norms, the residual adds) has branches, so
 * ELK lays it out (a chain would be stacked without ELK). */
function branchyTop(): GraphDocument {
  const b: Builder = { nodes: [], edges: [], params: [], n: 0 };
  b.params.push({
    id: '%para_x',
    name: 'x',
    kind: 'input',
    dtype: 'Float32',
    shape: [8, 64],
    size: 512,
    graph: null,
  });
  const { out, tree } = layer(b, 'Default/0-EncoderLayer', '%para_x', 64);
  op(b, 'Default', 'Return', [out], [8, 64], 'control');
  return graphDocument(b, [scope('Default', [tree])], {
    capture: 'ir-dump',
    target: 'synthetic:layer',
    inputs: [{ shape: [8, 64], dtype: 'Float32' }],
  });
}

let browser: Browser;
let p: Page;
let dir: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-graph-worker-'));
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
  });
  p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
});

after(async () => {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Console messages and CSP violations of the next page load. */
function watch(page: Page): { messages: string[]; violations: string[] } {
  const seen = { messages: [] as string[], violations: [] as string[] };
  page.on('console', (m) => {
    seen.messages.push(m.text());
    if (/Content Security Policy/.test(m.text())) seen.violations.push(m.text());
  });
  page.on('pageerror', (e) => seen.messages.push(String(e)));
  return seen;
}

test('under the panels’ CSP the graph is laid out in a worker, with no violation', async () => {
  const seen = watch(p);
  await loadGraph(p, page(dir, 'graph'), synthGraph(1, 12));
  await clickButton(p, 2, 'Expand all');
  assert.ok(p.workers().length >= 1, 'a layout worker runs');
  assert.deepEqual(seen.violations, []);
  assert.ok(!seen.messages.some((m) => /no layout worker/.test(m)), seen.messages.join('\n'));
  assert.ok((await p.locator('g.node').count()) > 50);
});

test('under a CSP without worker-src the graph is still drawn, by the page', async () => {
  const page2 = await browser.newPage();
  try {
    const seen = watch(page2);
    const strict = contentSecurityPolicy('file:', 'benchNonce0').replace(
      'worker-src blob:',
      "worker-src 'none'",
    );
    await loadGraph(page2, page(dir, 'graph', 'levels', strict), synthGraph(1, 12));
    await clickButton(page2, 2, 'Expand all');
    assert.equal(page2.workers().length, 0);
    assert.ok(
      seen.messages.some((m) => /no layout worker/.test(m)),
      `the view says it lays out in the page: ${seen.messages.join('\n')}`,
    );
    assert.ok((await page2.locator('g.node').count()) > 50);
  } finally {
    await page2.close();
  }
});

test('the first drawing does not wait for the layout worker to start', async () => {
  const fresh = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  // A worker still starting (as on a busy machine): what the page posts to it waits until the
  // test lets it through, so the boot's warm-up cannot finish before the document arrives.
  await fresh.addInitScript(() => {
    const held: (() => void)[] = [];
    const w = window as unknown as { __releaseWorker: () => void };
    let holding = true;
    w.__releaseWorker = () => {
      holding = false;
      for (const post of held.splice(0)) post();
    };
    const Real = window.Worker;
    window.Worker = class extends Real {
      postMessage(message: unknown): void {
        if (holding) held.push(() => super.postMessage(message));
        else super.postMessage(message);
      }
    };
  });
  try {
    await fresh.goto(page(dir, 'graph'));
    await fresh.waitForFunction(() => (window as unknown as BenchWindow).__messages.length > 0);
    // A busy delay far longer than any layout: only the first drawing of a cold worker may
    // show the stand-in before the real one.
    const seen = await fresh.evaluate((doc) => {
      const root = document.getElementById('root');
      if (!root) throw new Error('no root');
      root.dataset.busyAfterMs = '100000';
      const order: string[] = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          if (e.name === 'mindscope:graph-provisional') order.push('provisional');
      }).observe({ entryTypes: ['mark'] });
      (window as unknown as { __order: string[] }).__order = order;
      const w = window as unknown as BenchWindow;
      const post = w.__messages.push.bind(w.__messages);
      w.__messages.push = (...m) => {
        if (m.some((x) => x.type === 'rendered')) order.push('rendered');
        return post(...m);
      };
      window.postMessage({ type: 'load', doc, title: 't' }, '*');
      return order.length;
    }, branchyTop());
    assert.equal(seen, 0);
    await fresh.waitForFunction(() =>
      (window as unknown as { __order: string[] }).__order.includes('provisional'),
    );
    await fresh.evaluate(() =>
      (window as unknown as { __releaseWorker: () => void }).__releaseWorker(),
    );
    await painted(fresh, 1);
    const order = await fresh.evaluate(() => (window as unknown as { __order: string[] }).__order);
    assert.deepEqual(order.slice(0, 2), ['provisional', 'rendered'], order.join(' '));
    // Later layouts keep the busy delay: Expand all (ELK, worker warm now) shows no stand-in.
    await clickButton(fresh, 2, 'Expand all');
    const after = await fresh.evaluate(() => (window as unknown as { __order: string[] }).__order);
    assert.equal(after.filter((e) => e === 'provisional').length, 1, after.join(' '));
  } finally {
    await fresh.close();
  }
});

test('a slow layout shows the busy state and a stand-in drawing before the real one', async () => {
  await p.goto(page(dir, 'graph'));
  await p.waitForFunction(() => (window as unknown as BenchWindow).__messages.length > 0);
  // Busy from the first millisecond (data-busy-after-ms, for tests): a layout that needs ELK
  // (Expand all, below) always takes longer than that.
  await p.evaluate(
    (doc) => {
      const root = document.getElementById('root');
      if (!root) throw new Error('no root');
      root.dataset.busyAfterMs = '0';
      window.postMessage({ type: 'load', doc, title: 't' }, '*');
    },
    synthGraph(1, 12),
  );
  await painted(p, 1);
  await p.evaluate(() => {
    const root = document.getElementById('root');
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    new MutationObserver(() => {
      const busy = root?.classList.contains('busy') ? 'busy' : 'idle';
      if (seen[seen.length - 1] !== busy) seen.push(busy);
    }).observe(root as Node, { attributes: true, attributeFilter: ['class'] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.name === 'mindscope:graph-provisional') seen.push('provisional');
    }).observe({ entryTypes: ['mark'] });
    const w = window as unknown as BenchWindow;
    const rendered = w.__messages.filter((m) => m.type === 'rendered').length;
    // The real drawing is reported by its `rendered` message.
    const post = w.__messages.push.bind(w.__messages);
    w.__messages.push = (...m) => {
      if (m.some((x) => x.type === 'rendered')) seen.push('rendered');
      return post(...m);
    };
    return rendered;
  });
  await clickButton(p, 2, 'Expand all');
  const events = await p.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  const at = (e: string): number => events.indexOf(e);
  const order = events.join(' ');
  assert.ok(at('busy') >= 0, order);
  assert.ok(at('provisional') > at('busy'), order);
  assert.ok(at('rendered') > at('provisional'), order);
  assert.ok(events.lastIndexOf('idle') > at('provisional'), order);
  assert.ok(
    await p.evaluate(() => !document.getElementById('root')?.classList.contains('busy')),
    'the busy state ends with the drawing',
  );
});

// The webviews' pure hot paths in Node, each against the peer it replaced, in the same run
// (alternating, best of several rounds, so both see the same machine load):
// - graph fold: opening the biggest Cell of a 10,000-op stack, fold.ts's numbered index against
//   the fold by string ids it replaced (tests/unit/fixtures/referenceFold.ts);
// - graph load: indexing a 10,000-op transformer and folding its first view, both folds;
// - timeline: the rectangles of 100,000 events at one pixel per event-width, visibleSpans
//   (merged per pixel) against one rectangle per event in the window.
//
//   node extension/esbuild.mjs && node dist/bench/graph_fold.js [--rounds 7]
import { initialExpansion, visibleGraph, withExpanded } from '../extension/webview/graph/fold';
import { indexGraph } from '../extension/webview/graph/model';
import { buildTimeline, visibleSpans, type Row } from '../extension/webview/profile/timelineModel';
import { referenceFold } from '../tests/unit/fixtures/referenceFold';
import { synthGraph } from '../tests/unit/fixtures/synthGraph';
import { synthStack } from '../tests/unit/fixtures/synthStack';

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 7;

function timed(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

/** Best and median milliseconds of `ours` and `peer`, run alternately `ROUNDS` times. */
function compare(name: string, ours: () => unknown, peer: () => unknown, peerName: string): void {
  ours();
  peer();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(timed(ours));
    b.push(timed(peer));
  }
  const best = (xs: number[]): number => Math.min(...xs);
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] ?? NaN;
  const ms = (x: number): string => `${x.toFixed(2)} ms`;
  console.log(
    `${name}: ${ms(best(a))} best / ${ms(median(a))} median; ${peerName} ` +
      `${ms(best(b))} / ${ms(median(b))}; ratio ${(best(a) / best(b)).toFixed(3)} best, ` +
      `${(median(a) / median(b)).toFixed(3)} median`,
  );
}

/** One rectangle per event in the window: what the timeline drew before merging per pixel. */
function everyEvent(row: Row, t0: number, t1: number, pxPerUs: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < row.starts.length; i++) {
    const s = row.starts[i] ?? 0;
    const e = row.ends[i] ?? s;
    if (e < t0 || s > t1) continue;
    out.push({ x: (s - t0) * pxPerUs, width: Math.max(1, (e - s) * pxPerUs), index: i });
  }
  return out;
}

const stack = indexGraph(synthStack(5, 20, 25));
const first = initialExpansion(stack);
const stage = [...stack.scopes.values()]
  .filter((s) => s.parent !== null && !first.has(s.path) && s.shownOps > 100)
  .map((s) => s.path)[0];
if (!stage) throw new Error('the synthetic stack has no Cell of more than 100 ops');
const open = withExpanded(stack, first, [stage]);
console.log(`graph fold: stack of ${stack.shown.length} ops, opening ${stage}`);
compare(
  'open a Cell (5 folds)',
  () => {
    for (let i = 0; i < 5; i++) visibleGraph(stack, open);
  },
  () => {
    for (let i = 0; i < 5; i++) referenceFold(stack, open);
  },
  'fold by string ids',
);

const transformer = synthGraph(5, 91);
compare(
  `index + first view of a ${indexGraph(transformer).shown.length}-op transformer`,
  () => {
    const index = indexGraph(transformer);
    visibleGraph(index, initialExpansion(index));
  },
  () => {
    const index = indexGraph(transformer);
    referenceFold(index, initialExpansion(index));
  },
  'with the string-id fold',
);

const timeline = buildTimeline(
  Array.from({ length: 100_000 }, (_, i) => ({
    ph: 'X' as const,
    name: `op${i % 50}`,
    pid: 2,
    tid: 0,
    ts: i * 10,
    dur: 6,
  })),
);
const row = timeline.rows[0];
if (!row) throw new Error('the synthetic timeline has no row');
const px = 1000 / (timeline.end - timeline.start);
console.log(
  `timeline: 100,000 events on 1,000 px: ${visibleSpans(row, timeline.start, timeline.end, px).length} ` +
    `rectangles merged, ${everyEvent(row, timeline.start, timeline.end, px).length} one per event`,
);
compare(
  'timeline rectangles',
  () => visibleSpans(row, timeline.start, timeline.end, px),
  () => everyEvent(row, timeline.start, timeline.end, px),
  'one per event',
);

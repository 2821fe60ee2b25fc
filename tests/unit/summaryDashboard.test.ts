import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SummaryDocument } from '../../extension/src/contracts/summaryDocument';
import { followArgs, LineBuffer, parseFollowLine } from '../../extension/src/summary/lines';
import { mainTag, trainingItems } from '../../extension/src/summary/trainingItems';
import { scalarsCsv } from '../../extension/webview/summary/csv';
import { mergeSummary } from '../../extension/src/summary/merge';
import {
  downsample,
  nearest,
  padRange,
  smooth,
  ticks,
  toArray,
} from '../../extension/webview/summary/series';
import { chartSvg } from '../../extension/webview/summary/svgExport';
import { synthSummary } from './fixtures/synthSummary';

test('EMA smoothing is debiased and keeps NaN gaps', () => {
  const out = smooth(toArray([1, 1, null, 1]), 0.9);
  assert.deepEqual(
    [out[0], out[1], out[3]].map((v) => Number(v?.toFixed(12))),
    [1, 1, 1],
  );
  assert.ok(Number.isNaN(out[2]));
  assert.deepEqual(Array.from(smooth([3, 5], 0)), [3, 5]);
});

test('downsampling keeps every spike and stays within ~4 points per column', () => {
  const n = 100_000;
  const xs = Float64Array.from({ length: n }, (_, i) => i);
  const ys = Float64Array.from({ length: n }, (_, i) =>
    i === 54_321 ? 100 : i === 7 ? -50 : Math.sin(i),
  );
  const picks = downsample(xs, ys, 0, n - 1, 500);
  assert.ok(picks.length <= 500 * 4 + 4, `${picks.length} points`);
  assert.ok(picks.includes(54_321) && picks.includes(7));
  assert.deepEqual(
    picks,
    [...picks].sort((a, b) => a - b),
  );
  assert.equal(downsample(xs.subarray(0, 10), ys.subarray(0, 10), 0, 9, 500).length, 10);
});

test('the read-out finds the nearest point; ticks end on float-noise ranges', () => {
  assert.equal(nearest([1, 2, 10], 7), 2);
  assert.equal(nearest([1, 2, 10], 1.4), 0);
  assert.ok(ticks(0.05, 0.05 + 1e-17).length <= 15);
  assert.deepEqual(ticks(0, 10, 5), [0, 2, 4, 6, 8, 10]);
  const [lo, hi] = padRange(0.05, 0.05 + 1e-17, false);
  assert.ok(hi - lo > 0.001);
});

test('a follow update appends points to existing series and adds new runs', () => {
  const doc = synthSummary(1, 3);
  const update = synthSummary(2, 2);
  update.meta.incremental = true;
  const changed = mergeSummary(doc, update);
  assert.deepEqual([...changed], ['loss']);
  assert.equal(doc.runs.length, 2);
  assert.equal(doc.runs[0]?.scalars[0]?.steps.length, 5);
});

test('CSV quotes hostile run and tag names; SVG escapes them', () => {
  const doc = synthSummary(1, 2);
  const run = doc.runs[0];
  assert.ok(run?.scalars[0]);
  run.name = 'a,"b"';
  run.scalars[0].tag = '<img src=x onerror=alert(1)>';
  const csv = scalarsCsv(doc.runs);
  assert.match(csv, /^run,tag,step,wall_time,value\n"a,""b""",<img src=x onerror=alert\(1\)>,1,/);
  const svg = chartSvg(run.scalars[0].tag, 100, 50, [
    { label: run.name, color: 'red;x', points: [[1, 2]] },
  ]);
  assert.ok(!svg.includes('<img'));
  assert.ok(svg.includes('&lt;img src=x onerror=alert(1)&gt;'));
  assert.ok(svg.includes('stroke="#888888"'), 'a colour that is not #hex is replaced');
});

test('follow lines: documents and the status are told apart, partial lines kept', () => {
  const buffer = new LineBuffer();
  const doc = JSON.stringify(synthSummary(1, 1));
  assert.deepEqual(buffer.push(doc.slice(0, 10)), []);
  const lines = buffer.push(
    `${doc.slice(10)}\n{"ok": false, "error": {"kind": "x", "message": "m"}}\n`,
  );
  assert.equal(parseFollowLine(lines[0] ?? '')?.kind, 'document');
  assert.equal(parseFollowLine(lines[1] ?? '')?.kind, 'status');
  assert.equal(parseFollowLine('not json'), undefined);
  assert.deepEqual(followArgs('/r').slice(0, 3), ['summary', '/r', '--follow']);
  assert.deepEqual(followArgs('/r', { interval: 1, tags: ['*loss*'] }), [
    'summary', '/r', '--follow', '--interval', '1', '--tag', '*loss*', '--quiet',
  ]); // prettier-ignore
});

test('the side panel row takes the loss tag, its last value and a sparkline', () => {
  const doc: SummaryDocument = synthSummary(1, 100);
  const run = doc.runs[0];
  assert.ok(run);
  run.scalars.unshift({ tag: 'learning_rate', steps: [1], wallTimes: [1], values: [0.1] });
  assert.equal(mainTag(run.scalars)?.tag, 'loss');
  const item = trainingItems(doc)[0];
  assert.ok(item);
  assert.equal(item.tag, 'loss');
  assert.equal(item.points, 100);
  assert.equal(item.spark.length, 40);
  assert.equal(item.latest, run.scalars[1]?.values[99]);
});

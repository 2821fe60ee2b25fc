import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TraceEvent } from '../../extension/src/contracts/profileDocument';
import {
  buildTimeline,
  eventAt,
  visibleSpans,
} from '../../extension/webview/profile/timelineModel';

const x = (name: string, ts: number, dur: number, pid = 2): TraceEvent => ({
  ph: 'X',
  name,
  pid,
  tid: 0,
  ts,
  dur,
});

test('tracks are named from process_name metadata and nested events go one row deeper', () => {
  const model = buildTimeline([
    { ph: 'M', name: 'process_name', pid: 3, tid: 0, args: { name: 'Scopes' } },
    x('outer', 0, 100, 3),
    x('inner', 10, 20, 3),
    x('next', 100, 5, 3),
    x('op', 5, 1, 2),
  ]);
  assert.deepEqual(
    model.rows.map((r) => [r.label, r.names]),
    [
      ['pid 2', ['op']],
      ['Scopes', ['outer', 'next']],
      ['Scopes ·1', ['inner']],
    ],
  );
  assert.equal(model.start, 0);
  assert.equal(model.end, 105);
  assert.equal(model.count, 4);
});

test('100,000 events draw as at most about one rectangle per pixel (timed in bench/graph_fold.ts)', () => {
  const events = Array.from({ length: 100_000 }, (_, i) => x(`op${i % 50}`, i * 10, 6));
  const model = buildTimeline(events);
  const row = model.rows[0];
  assert.ok(row);
  const spans = visibleSpans(row, model.start, model.end, 1000 / (model.end - model.start));
  // Sub-pixel gaps merge: the whole dense run is one bar at this zoom.
  assert.ok(spans.length >= 1 && spans.length <= 1001, String(spans.length));
  // Gaps of a pixel or more stay visible.
  const sparse = buildTimeline(Array.from({ length: 10 }, (_, i) => x('op', i * 100, 1))).rows[0];
  assert.ok(sparse);
  assert.equal(visibleSpans(sparse, 0, 1000, 1).length, 10);
  // Zoomed in, every event in the window is its own rectangle.
  const zoomed = visibleSpans(row, 5000, 5100, 10);
  assert.deepEqual(
    zoomed.map((s) => s.index),
    [500, 501, 502, 503, 504, 505, 506, 507, 508, 509, 510],
  );
});

test('a long event that starts before the window is still drawn', () => {
  const model = buildTimeline([x('long', 0, 1000), x('short', 1500, 1)]);
  const row = model.rows[0];
  assert.ok(row);
  assert.deepEqual(
    visibleSpans(row, 500, 600, 1).map((s) => s.index),
    [0],
  );
  assert.equal(eventAt(row, 550, 0), 0);
  assert.equal(eventAt(row, 1200, 1), undefined);
  assert.equal(eventAt(row, 1500.5, 0), 1);
});

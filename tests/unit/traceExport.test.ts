import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProfileDocument } from '../../extension/src/contracts/profileDocument';
import { toChromeTrace } from '../../extension/src/panels/traceExport';

const doc = {
  kind: 'mindscope.profile',
  version: 1,
  meta: {
    mindsporeVersion: '2.10.0',
    mode: 'GRAPH_MODE',
    syntaxLevel: 'LAX',
    device: 'CPU',
    target: 'model.py:Net',
    inputs: [],
    steps: 2,
    warmup: 1,
    scopeAttribution: 'mindspore',
    timeOriginUs: 1_700_000_000_000_000,
  },
  ops: [],
  byType: [],
  byCell: [],
  steps: [],
  totals: { opMs: 0, meanStepMs: 0, steps: 2, opRows: 0 },
  timeline: {
    unit: 'us',
    events: [
      { ph: 'X', name: 'b', pid: 2, tid: 0, ts: 20, dur: 1 },
      { ph: 'M', name: 'process_name', pid: 2, tid: 0, args: { name: 'CPU ops' } },
      { ph: 'X', name: 'a', pid: 2, tid: 0, ts: 10, dur: 5 },
    ],
  },
  memory: null,
} satisfies ProfileDocument;

test('the Chrome trace puts metadata first, events by time, and says what was profiled', () => {
  const trace = toChromeTrace(doc);
  assert.deepEqual(
    trace.traceEvents.map((e) => e.name),
    ['process_name', 'a', 'b'],
  );
  assert.equal(trace.displayTimeUnit, 'ms');
  assert.equal(trace.otherData.target, 'model.py:Net');
  assert.equal(trace.otherData.timeOriginUs, 1_700_000_000_000_000);
  // A JSON round trip is what Perfetto reads.
  assert.deepEqual(JSON.parse(JSON.stringify(trace)), trace);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toChromeTrace } from '../../extension/src/panels/traceExport';
import { profileDocument } from './fixtures/synthProfile';

const doc = profileDocument(
  { target: 'model.py:Net', steps: 2, timeOriginUs: 1_700_000_000_000_000 },
  {
    timeline: {
      unit: 'us',
      events: [
        { ph: 'X', name: 'b', pid: 2, tid: 0, ts: 20, dur: 1 },
        { ph: 'M', name: 'process_name', pid: 2, tid: 0, args: { name: 'CPU ops' } },
        { ph: 'X', name: 'a', pid: 2, tid: 0, ts: 10, dur: 5 },
      ],
    },
  },
);

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

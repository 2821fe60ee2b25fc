import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CellRow } from '../../extension/src/contracts/profileDocument';
import { callCount, perCallMs, topCells } from '../../extension/webview/profile/cellTimes';

const row = (
  scope: string,
  totalMs: number,
  calls: number,
  extra: Partial<CellRow> = {},
): CellRow => ({
  scope,
  selfMs: 0,
  totalMs,
  calls,
  ops: calls ? 1 : 0,
  share: 0,
  ...extra,
});

test('per call is the runtime figure when the document has one', () => {
  const blocks = row('Default/blocks-CellList', 4470, 0, { callCount: 2, perCallMs: 2235 });
  assert.equal(perCallMs(blocks, 2), 2235);
  assert.equal(callCount(blocks, 2), 2);
});

test('an older document: a Cell without ops of its own is per step, not its whole total', () => {
  const blocks = row('Default/blocks-CellList', 4470, 0);
  assert.equal(perCallMs(blocks, 3), 1490);
  assert.equal(callCount(blocks, 3), 3);
  assert.equal(perCallMs(row('Default/fc-Dense', 10, 4), 2), 2.5);
});

test('backend expansion scopes are not drawn as Cells', () => {
  const cells = [
    row('Default', 100, 1),
    row('Expand', 5, 2),
    row('Expand/_InplaceAddExt', 5, 2),
    row('Default/layer1-SequentialCell', 60, 0),
    row('Default/fc-Dense', 30, 2),
  ];
  assert.deepEqual(
    topCells(cells).map((c) => c.scope),
    ['Default/layer1-SequentialCell', 'Default/fc-Dense'],
  );
});

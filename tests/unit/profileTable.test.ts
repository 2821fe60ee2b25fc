import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OpRow } from '../../extension/src/contracts/profileDocument';
import { filterRows, groupRows, nextSort, sortRows } from '../../extension/webview/profile/table';

const row = (name: string, type: string, scope: string, calls: number, totalMs: number): OpRow => ({
  name,
  fullName: `${scope}/${name}`,
  type,
  scope,
  scopeSource: 'mindspore',
  calls,
  totalMs,
  avgMs: totalMs / calls,
  share: totalMs / 10,
});

const rows = [
  row('Conv2D-op0', 'Conv2D', 'Default/conv1', 5, 4),
  row('ReLU-op0', 'ReLU', 'Default/relu', 5, 0.5),
  row('Conv2D-op1', 'Conv2D', 'Default/block/conv', 10, 3),
  row('Add-op0', 'Add', 'Default/block', 20, 2.5),
];

test('sorting by each numeric key, both directions', () => {
  const names = (r: OpRow[]): string[] => r.map((x) => x.name);
  assert.deepEqual(names(sortRows(rows, { key: 'totalMs', dir: 'desc' })), [
    'Conv2D-op0',
    'Conv2D-op1',
    'Add-op0',
    'ReLU-op0',
  ]);
  assert.deepEqual(names(sortRows(rows, { key: 'calls', dir: 'asc' })), [
    'Conv2D-op0',
    'ReLU-op0',
    'Conv2D-op1',
    'Add-op0',
  ]);
  assert.deepEqual(names(sortRows(rows, { key: 'avgMs', dir: 'desc' })).slice(0, 2), [
    'Conv2D-op0',
    'Conv2D-op1',
  ]);
  assert.deepEqual(names(sortRows(rows, { key: 'name', dir: 'asc' }))[0], 'Add-op0');
});

test('equal keys keep the document order', () => {
  const sorted = sortRows(rows, { key: 'calls', dir: 'desc' });
  assert.deepEqual(
    sorted.filter((r) => r.calls === 5).map((r) => r.name),
    ['Conv2D-op0', 'ReLU-op0'],
  );
});

test('a header click flips the same key and starts a new one at its natural direction', () => {
  assert.deepEqual(nextSort({ key: 'totalMs', dir: 'desc' }, 'totalMs'), {
    key: 'totalMs',
    dir: 'asc',
  });
  assert.deepEqual(nextSort({ key: 'totalMs', dir: 'desc' }, 'calls'), {
    key: 'calls',
    dir: 'desc',
  });
  assert.deepEqual(nextSort({ key: 'totalMs', dir: 'desc' }, 'name'), { key: 'name', dir: 'asc' });
});

test('grouping by op type sums the members and sorts the groups', () => {
  const groups = groupRows(rows, 'type', { key: 'totalMs', dir: 'desc' });
  assert.deepEqual(
    groups.map((g) => [g.key, g.rows.length, g.totalMs, g.calls]),
    [
      ['Conv2D', 2, 7, 15],
      ['Add', 1, 2.5, 20],
      ['ReLU', 1, 0.5, 5],
    ],
  );
  assert.equal(groups[0]?.avgMs, 7 / 15);
});

test('grouping by Cell uses each op scope', () => {
  const groups = groupRows(rows, 'cell', { key: 'name', dir: 'asc' });
  assert.deepEqual(
    groups.map((g) => g.key),
    ['Default/block', 'Default/block/conv', 'Default/conv1', 'Default/relu'],
  );
});

test('the filter matches names and types', () => {
  assert.equal(filterRows(rows, 'conv2d').length, 2);
  assert.equal(filterRows(rows, 'block').length, 2);
  assert.equal(filterRows(rows, '').length, 4);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ranksOf } from '../../extension/src/contracts/profileDocument';
import { breakdowns, clockText, stepGroups } from '../../extension/webview/profile/ranksModel';
import { filterByRank, rowRanks } from '../../extension/webview/profile/table';
import { distributedProfile, profileDocument } from './fixtures/synthProfile';

const doc = distributedProfile(3);
const section = ranksOf(doc);

test('a single-process profile has no ranks section; a merged one does', () => {
  assert.equal(ranksOf(profileDocument({ target: 'm.py:Net' })), undefined);
  assert.ok(section);
  assert.equal(ranksOf({ ...doc, ranks: { ...section, version: 2 as unknown as 1 } }), undefined);
});

test('step groups: one bar per rank per step, the straggler flagged', () => {
  assert.ok(section);
  const groups = stepGroups(section);
  assert.equal(groups.length, 3);
  assert.deepEqual(
    groups[0]?.bars.map((b) => [b.rank, b.wallMs, b.straggler]),
    [
      [0, 11, false],
      [1, 11.1, true],
    ],
  );
});

test('breakdown per rank: comm, compute and idle shares add up to the wall', () => {
  assert.ok(section);
  const rows = breakdowns(section);
  assert.deepEqual(
    rows.map((r) => r.straggler),
    [false, true],
  );
  for (const r of rows) {
    const total = r.parts.reduce((s, p) => s + p.share, 0);
    assert.ok(Math.abs(total - 1) < 1e-9, `rank ${r.rank}: ${total}`);
  }
  // The fast rank waits for the straggler: more of its time is communication.
  const comm = rows.map((r) => r.parts.find((p) => p.kind === 'comm')?.share ?? 0);
  assert.ok((comm[0] ?? 0) > (comm[1] ?? 0));
  assert.equal(clockText(section), '2 ranks · one host, shared clock, residual skew 0.120 ms');
});

test('no rank is the overall straggler when they straggle equally often', () => {
  assert.ok(section);
  const tied = {
    ...section,
    steps: section.steps.slice(0, 2).map((s, i) => ({ ...s, straggler: i })),
  };
  assert.deepEqual(
    breakdowns(tied).map((r) => r.straggler),
    [false, false],
  );
});

test('the op table filters by rank', () => {
  assert.deepEqual(rowRanks(doc.ops), [0, 1]);
  assert.deepEqual(rowRanks(profileDocument({ target: 'x' }).ops), []);
  const one = filterByRank(doc.ops, 1);
  assert.equal(one.length, 2);
  assert.ok(one.every((r) => r.rank === 1));
  assert.equal(filterByRank(doc.ops, undefined).length, 4);
});

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { ProfileDocument } from '../../extension/src/contracts/profileDocument';
import { summarizeProfile } from '../../extension/src/panels/profileSummary';

const base: ProfileDocument = JSON.parse(
  JSON.stringify({
    kind: 'mindscope.profile',
    version: 1,
    meta: { target: 'm.py:Net', mode: 'GRAPH_MODE', steps: 2 },
    ops: [],
    byType: [
      { type: 'ReLU', calls: 2, totalMs: 1, avgMs: 0.5, share: 0.1 },
      { type: 'Conv2D', calls: 2, totalMs: 8, avgMs: 4, share: 0.8 },
      { type: 'Add', calls: 2, totalMs: 1, avgMs: 0.5, share: 0.1 },
    ],
    byCell: [
      { scope: 'Default', selfMs: 0, totalMs: 10, calls: 2, ops: 0, share: 1 },
      { scope: 'Default/conv-Conv2d', selfMs: 8, totalMs: 8, calls: 2, ops: 1, share: 0.8 },
      { scope: 'Default/block-Block', selfMs: 0, totalMs: 2, calls: 2, ops: 0, share: 0.2 },
      {
        scope: 'Default/block-Block/relu-ReLU',
        selfMs: 1,
        totalMs: 1,
        calls: 2,
        ops: 1,
        share: 0.1,
      },
    ],
    steps: [],
    totals: { opMs: 10, meanStepMs: 6, steps: 2, opRows: 3 },
    timeline: { unit: 'us', events: [] },
    memory: null,
  }),
) as ProfileDocument;

test('the glance shows step time, the top op types and the top-level Cells', () => {
  const s = summarizeProfile(base, 2);
  assert.equal(s.meanStepMs, 6);
  assert.equal(s.opMsPerStep, 5);
  assert.deepEqual(
    s.topTypes.map((t) => t.type),
    ['Conv2D', 'ReLU'],
  );
  assert.deepEqual(
    s.topCells.map((c) => c.scope),
    ['Default/conv-Conv2d', 'Default/block-Block'],
  );
});

test('package.json declares every command it registers, and gates the ones that run code', () => {
  const pkg = JSON.parse(
    fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'),
  ) as { contributes: { commands: { command: string; enablement?: string }[] } };
  const byId = new Map(pkg.contributes.commands.map((c) => [c.command, c]));
  for (const id of ['mindscope.showGraph', 'mindscope.profile', 'mindscope.debugPyNative']) {
    assert.equal(byId.get(id)?.enablement, 'isWorkspaceTrusted', id);
  }
  for (const id of ['mindscope.openGraphDocument', 'mindscope.exportChromeTrace']) {
    assert.ok(byId.has(id), id);
  }
});

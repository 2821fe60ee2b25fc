import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeError,
  mindirArgs,
  parseStatus,
  progressText,
  targetArgs,
} from '../../extension/src/runtime/cli';

test('graph and profile command lines', () => {
  assert.deepEqual(
    targetArgs({
      command: 'graph',
      file: '/w/model.py',
      name: 'ResNet',
      inputs: { kind: 'shapes', specs: ['2,3,32,32:float32', '2:int32'] },
      output: '/o/g.json',
    }),
    [
      'graph',
      '/w/model.py:ResNet',
      '--input',
      '2,3,32,32:float32',
      '--input',
      '2:int32',
      '-o',
      '/o/g.json',
    ],
  );
  assert.deepEqual(
    targetArgs({
      command: 'profile',
      file: '/w/model.py',
      name: 'ResNet',
      inputs: { kind: 'function', file: '/w/model.py', name: 'make_inputs' },
      output: '/o/p.json',
    }),
    [
      'profile',
      '/w/model.py:ResNet',
      '--inputs-from',
      '/w/model.py:make_inputs',
      '-o',
      '/o/p.json',
    ],
  );
  assert.deepEqual(mindirArgs('/w/a.mindir', '/o/g.json'), [
    'mindir',
    '/w/a.mindir',
    '-o',
    '/o/g.json',
  ]);
});

test('the status is the last JSON line with ok, whatever the model printed', () => {
  const out =
    'hello {"not": "status"}\n{"x": 1}\n{"ok": true, "command": "graph", "output": "/o"}\n';
  assert.deepEqual(parseStatus(out), { ok: true, command: 'graph', output: '/o' });
  assert.equal(parseStatus('nothing here'), undefined);
  const failed = parseStatus(
    '{"ok": false, "error": {"kind": "compile-failed", "message": "Unsupported statement \'Try\'.", "file": "/w/net.py", "line": 7, "rule": "MS101"}}',
  );
  assert.ok(failed?.error);
  assert.equal(describeError(failed.error), "Unsupported statement 'Try'. [MS101] (net.py:7)");
});

test('progress lines lose their timer prefix; other stderr is not progress', () => {
  assert.equal(progressText('[mindscope 1.2s] compiling ResNet'), 'compiling ResNet');
  assert.equal(progressText('[WARNING] ME(123) something'), undefined);
});

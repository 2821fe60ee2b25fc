import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distributedCallLine } from '../../extension/src/codelens/distScript';
import { distArgs } from '../../extension/src/runtime/cli';

test('the CodeLens line: init() from mindspore.communication or set_auto_parallel_context', () => {
  const script = [
    'import mindspore as ms',
    'from mindspore.communication import get_rank, init',
    '',
    'def main():',
    '    ms.set_context(mode=ms.GRAPH_MODE)',
    '    init()',
    '    ms.set_auto_parallel_context(parallel_mode="data_parallel")',
  ].join('\n');
  assert.equal(distributedCallLine(script), 5);
  const contextOnly = 'import mindspore as ms\nms.set_auto_parallel_context(gradients_mean=True)\n';
  assert.equal(distributedCallLine(contextOnly), 1);
});

test('no CodeLens for an unrelated init or a file without mindspore', () => {
  assert.equal(distributedCallLine('import torch\nfrom x import init\ninit()\n'), undefined);
  const ownInit = 'import mindspore\nfrom mine import init\ninit()\n';
  assert.equal(distributedCallLine(ownInit), undefined);
  const method = [
    'import mindspore',
    'class A:',
    '    def __init__(self):',
    '        self.init()',
  ].join('\n');
  assert.equal(distributedCallLine(method), undefined);
});

test('profile-dist arguments put the script arguments after --', () => {
  const base = { file: '/w/train_dp.py', workers: 2, output: '/o/d.json' };
  assert.deepEqual(distArgs({ ...base, scriptArgs: [] }), [
    'profile-dist',
    '/w/train_dp.py',
    '--workers',
    '2',
    '-o',
    '/o/d.json',
  ]);
  assert.deepEqual(distArgs({ ...base, scriptArgs: ['--steps', '4'] }).slice(-3), [
    '--',
    '--steps',
    '4',
  ]);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LAUNCH_MODULE, pynativeConfig, toDebugpy } from '../../extension/src/debug/config';

const START = '/ext/pyserver/mindscope_start.py';

test('a script runs under the launcher module with MS_JIT=0 and its arguments', () => {
  const config = { ...pynativeConfig({ program: '/w/train.py' }), args: ['--steps', '2'] };
  const launch = toDebugpy(config, '/venv/bin/python', '/ext/runtime', '/w', START);
  assert.equal(launch.program, START);
  assert.deepEqual(launch.args, [LAUNCH_MODULE, '/w/train.py', '--steps', '2']);
  assert.equal(launch.env.MS_JIT, '0');
  assert.equal(launch.env.PYTHONPATH, '/ext/runtime');
  assert.deepEqual(launch.python, ['/venv/bin/python']);
  assert.equal(launch.cwd, '/w');
  assert.equal(launch.justMyCode, true);
  assert.equal(launch.console, 'internalConsole');
  assert.equal(launch.name, 'Debug in PyNative: train.py');
});

test('a Cell runs once on its inputs; the user cannot turn MS_JIT back on', () => {
  const config = {
    ...pynativeConfig({ cell: '/w/model.py:ResNet', inputsFrom: '/w/model.py:make_inputs' }),
    env: { MS_JIT: '1', PYTHONPATH: '/mine' },
    python: '/other/python',
  };
  const launch = toDebugpy(config, '/venv/bin/python', '/ext/runtime', '/', START);
  assert.deepEqual(launch.args, [
    LAUNCH_MODULE,
    '--cell',
    '/w/model.py:ResNet',
    '--inputs-from',
    '/w/model.py:make_inputs',
  ]);
  assert.equal(launch.env.MS_JIT, '0');
  assert.equal(launch.env.PYTHONPATH, '/ext/runtime:/mine');
  assert.deepEqual(launch.python, ['/other/python']);
  assert.equal(launch.cwd, '/w');
});

test('shapes become --input flags; a config without program or cell is refused', () => {
  const launch = toDebugpy(
    pynativeConfig({ cell: 'm.py:Net', input: ['1,3:float32', '2:int32'] }),
    'py',
    '',
    '/w',
    START,
  );
  assert.deepEqual(launch.args, [
    LAUNCH_MODULE,
    '--cell',
    'm.py:Net',
    '--input',
    '1,3:float32',
    '--input',
    '2:int32',
  ]);
  assert.throws(() =>
    toDebugpy({ type: 'mindscope', request: 'launch', name: 'x' }, 'py', '', '/', START),
  );
});

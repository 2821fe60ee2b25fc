import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pythonChild, startScript } from '../../extension/src/python/child';

const base = { python: '/venv/bin/python', extensionPath: '/ext', env: { PYTHONPATH: '/ext/x' } };

test('a static child runs the module through the start script, in the extension folder', () => {
  const child = pythonChild({ ...base, module: 'mindscope_ls', args: ['--probe'], role: 'static' });
  assert.equal(child.command, '/venv/bin/python');
  assert.deepEqual(child.args, [startScript('/ext'), 'mindscope_ls', '--probe']);
  assert.equal(startScript('/ext'), '/ext/pyserver/mindscope_start.py');
  assert.ok(!child.args.includes('-m') && !child.args.includes('-c'), child.args.join(' '));
  assert.equal(child.cwd, '/ext');
  assert.deepEqual(child.env, base.env);
});

test('a static child never runs in the folder it is given (the .mindir file folder)', () => {
  const child = pythonChild({
    ...base,
    module: 'mindscope_runtime',
    args: ['mindir', '/w/a.mindir'],
    role: 'static',
    cwd: '/w',
  });
  assert.equal(child.cwd, '/ext');
});

test('a user-code child runs in the folder its code expects, and must be given one', () => {
  const child = pythonChild({
    ...base,
    module: 'mindscope_runtime',
    args: ['graph', '/w/m.py:Net'],
    role: 'user-code',
    cwd: '/w',
  });
  assert.equal(child.cwd, '/w');
  assert.deepEqual(child.args.slice(1), ['mindscope_runtime', 'graph', '/w/m.py:Net']);
  assert.throws(() =>
    pythonChild({ ...base, module: 'mindscope_runtime', args: [], role: 'user-code' }),
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installCommand, interpretProbe, probeInterpreter } from '../../extension/src/server/probe';

test('a missing executable is reported as not found', () => {
  const error = Object.assign(new Error('spawn /nope ENOENT'), { code: 'ENOENT' });
  assert.equal(interpretProbe(error, '', '').kind, 'not-found');
});

test('missing packages are listed', () => {
  assert.deepEqual(
    interpretProbe(null, '{"python": "3.11.7", "missing": ["pygls", "jedi"]}\n', ''),
    {
      kind: 'missing-packages',
      version: '3.11.7',
      packages: ['pygls', 'jedi'],
    },
  );
});

test('a healthy interpreter is ok', () => {
  assert.deepEqual(interpretProbe(null, 'noise\n{"python": "3.12.1", "missing": []}', ''), {
    kind: 'ok',
    version: '3.12.1',
  });
});

test('garbage output becomes a failure carrying the last stderr line', () => {
  const error = Object.assign(new Error('exit 1'), { code: 1 });
  const result = interpretProbe(error, '', 'Traceback...\nNo module named mindscope_ls\n');
  assert.deepEqual(result, { kind: 'failed', message: 'No module named mindscope_ls' });
});

test('the install command quotes what the shell would split', () => {
  assert.equal(
    installCommand('/usr/bin/python3', ['pygls']),
    '/usr/bin/python3 -m pip install pygls',
  );
  assert.equal(installCommand('/my envs/py', ['jedi']), `'/my envs/py' -m pip install jedi`);
});

test('probing a real interpreter that does not exist', async () => {
  const result = await probeInterpreter('/definitely/not/python3', process.env, process.cwd());
  assert.equal(result.kind, 'not-found');
});

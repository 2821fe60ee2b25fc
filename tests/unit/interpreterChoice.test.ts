import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseInterpreter, findOnPath } from '../../extension/src/python/interpreterChoice';

test('the setting wins over the Python extension and PATH', () => {
  assert.deepEqual(
    chooseInterpreter({
      setting: '/opt/py/bin/python',
      pythonExtension: '/x/python',
      onPath: '/usr/bin/python3',
    }),
    { command: '/opt/py/bin/python', source: 'setting' },
  );
});

test('the Python extension comes before PATH', () => {
  assert.deepEqual(
    chooseInterpreter({ setting: '', pythonExtension: '/x/python', onPath: '/usr/bin/python3' }),
    {
      command: '/x/python',
      source: 'python-extension',
    },
  );
});

test('PATH is the last resort, and nothing found is undefined', () => {
  assert.equal(chooseInterpreter({ setting: '', onPath: '/usr/bin/python3' })?.source, 'path');
  assert.equal(chooseInterpreter({ setting: '' }), undefined);
});

test('a leading ~ in the setting means the home directory', () => {
  const home = process.env.HOME;
  process.env.HOME = '/home/me';
  try {
    assert.equal(
      chooseInterpreter({ setting: '~/venv/bin/python' })?.command,
      '/home/me/venv/bin/python',
    );
  } finally {
    process.env.HOME = home;
  }
});

test('findOnPath takes the first directory that has an executable, in name order', () => {
  const present = new Set(['/b/python', '/c/python3']);
  const found = findOnPath(['python3', 'python'], '/a::/b/:/c', (f) => present.has(f));
  assert.equal(found, '/b/python');
  assert.equal(
    findOnPath(['python3'], '', () => true),
    undefined,
  );
});

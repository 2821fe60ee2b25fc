import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CellFileMap,
  cellFilePath,
  murmur2,
  schemeFromDebugInfo,
  type CellFileScheme,
} from '../../extension/src/notebook/debug/cellFiles';

// ipykernel's own seed (compiler.get_tmp_hash_seed).
const SEED = 0xc70f6907;

// Answers of ipykernel 7.4's `compiler.murmur2_x86(text, 0xC70F6907)`, computed with it once:
// every tail length (0-3 bytes after the 4-byte blocks), and multi-byte UTF-8.
const KNOWN: [string, number][] = [
  ['', 3990065800],
  ['a', 2167009006],
  ['ab', 2805137849],
  ['abc', 3350977461],
  ['abcd', 804720481],
  ['abcde', 730143326],
  ['x = 1\n', 1602534638],
  ['print("é—ü 张量")\n', 548921356],
  ['class Net(nn.Cell):\n    def construct(self, x):\n        return x * 2\n', 919586762],
];

const SCHEME: CellFileScheme = {
  prefix: '/tmp/ipykernel_42/',
  suffix: '.py',
  hashMethod: 'Murmur2',
  hashSeed: SEED,
};

test('murmur2 gives the hash ipykernel names cell files with', () => {
  for (const [text, hash] of KNOWN) assert.equal(murmur2(text, SEED), hash, JSON.stringify(text));
});

test('a cell file is prefix + hash + suffix, with CRLF read as the LF the kernel receives', () => {
  assert.equal(cellFilePath(SCHEME, 'x = 1\n'), '/tmp/ipykernel_42/1602534638.py');
  assert.equal(cellFilePath(SCHEME, 'x = 1\r\n'), '/tmp/ipykernel_42/1602534638.py');
  assert.equal(cellFilePath({ ...SCHEME, hashMethod: 'sha1' }, 'x = 1\n'), undefined);
});

test('the scheme is read from a debugInfo body; a body without it gives none', () => {
  const body = {
    isStarted: true,
    hashMethod: 'Murmur2',
    hashSeed: SEED,
    tmpFilePrefix: '/tmp/ipykernel_42/',
    tmpFileSuffix: '.py',
  };
  assert.deepEqual(schemeFromDebugInfo(body), SCHEME);
  assert.equal(schemeFromDebugInfo({ ...body, hashSeed: '1' }), undefined);
  assert.equal(schemeFromDebugInfo(null), undefined);
});

test('dumped cells map both ways; a re-dumped cell forgets its old file', () => {
  const map = new CellFileMap(() => []);
  map.remember('cell#1', '/tmp/ipykernel_42/1.py');
  assert.equal(map.fileFor('cell#1'), '/tmp/ipykernel_42/1.py');
  assert.equal(map.cellFor('/tmp/ipykernel_42/1.py'), 'cell#1');
  map.remember('cell#1', '/tmp/ipykernel_42/2.py');
  assert.equal(map.cellFor('/tmp/ipykernel_42/1.py'), undefined);
  assert.equal(map.cellFor('/tmp/ipykernel_42/2.py'), 'cell#1');
  assert.equal(map.fileFor('cell#2'), undefined);
});

test('a frame in a cell never dumped is found by hashing the current cells', () => {
  const cells = [
    { uri: 'cell#1', code: 'a = 1\n' },
    { uri: 'cell#2', code: 'x = 1\n' },
  ];
  const map = new CellFileMap(() => cells);
  assert.equal(map.cellFor('/tmp/ipykernel_42/1602534638.py'), undefined, 'no scheme yet');
  map.setScheme(SCHEME);
  assert.equal(map.cellFor('/tmp/ipykernel_42/1602534638.py'), 'cell#2');
  assert.equal(map.fileFor('cell#2'), '/tmp/ipykernel_42/1602534638.py');
  assert.equal(map.cellFor('/work/model.py'), undefined, 'workspace files are not cells');
  assert.equal(map.cellFor('/tmp/ipykernel_42/1.py'), undefined, 'an edited or foreign cell');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellAt } from '../../extension/src/codelens/cellClasses';
import { cellsFromReply, isMethodNotFound } from '../../extension/src/codelens/cellReply';
import { isCellClassesResult } from '../../extension/src/contracts/cellClasses';

const reply = {
  cells: [
    { name: 'Block', line: 4, character: 0, endLine: 6, kind: 'cell' },
    { name: 'Net', line: 10, character: 0, endLine: 12, kind: 'cell' },
  ],
};

test("the server's mindscope/cellClasses answer becomes the CodeLens's Cells", () => {
  assert.deepEqual(cellsFromReply(reply), [
    { name: 'Block', line: 4, endLine: 6 },
    { name: 'Net', line: 10, endLine: 12 },
  ]);
  assert.deepEqual(cellsFromReply({ cells: [] }), []);
});

test('anything else is not an answer, so the textual fallback runs', () => {
  for (const bad of [undefined, null, {}, { cells: {} }, { cells: [{ name: 'X', line: 1 }] }]) {
    assert.equal(cellsFromReply(bad), undefined, JSON.stringify(bad));
  }
  const wrongKind = { cells: [{ ...reply.cells[0], kind: 'function' }] };
  assert.equal(isCellClassesResult(wrongKind), false);
});

test('only "method not found" marks a server without the request', () => {
  assert.equal(isMethodNotFound({ code: -32601, message: 'Method not found' }), true);
  assert.equal(isMethodNotFound({ code: -32603, message: 'internal' }), false);
  assert.equal(isMethodNotFound(new Error('closed')), false);
});

test("with the server's end lines, a line after a class body is in no Cell", () => {
  const cells = cellsFromReply(reply) ?? [];
  assert.equal(cellAt(cells, 5)?.name, 'Block');
  assert.equal(cellAt(cells, 8), undefined);
  assert.equal(cellAt(cells, 12)?.name, 'Net');
});

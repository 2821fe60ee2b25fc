import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cellAt,
  findCellClasses,
  findInputsFunction,
} from '../../extension/src/codelens/cellClasses';
import { parseInputSpecs, validateInputSpecs } from '../../extension/src/codelens/inputSpec';

const source = [
  'import mindspore as ms',
  'from mindspore import nn',
  'class Plain:',
  '    pass',
  'class Block(nn.Cell):',
  '    def construct(self, x):',
  '        return x',
  'class Net(Block):',
  '    pass',
  'class Seq(mindspore.nn.SequentialCell):',
  '    pass',
  'class Bare(Cell, Mixin):',
  '    pass',
  'class NotACell(CellLike):',
  '    pass',
  '    class Inner(nn.Cell):',
  'def make_inputs():',
  '    return 1',
].join('\n');

test('finds Cell subclasses, including subclasses of local Cells, and nothing else', () => {
  assert.deepEqual(
    findCellClasses(source).map((c) => [c.name, c.line]),
    [
      ['Block', 4],
      ['Net', 7],
      ['Seq', 9],
      ['Bare', 11],
    ],
  );
});

test('finds make_inputs and the Cell around a line', () => {
  assert.equal(findInputsFunction(source), 'make_inputs');
  assert.equal(findInputsFunction('def other():\n  pass'), undefined);
  const classes = findCellClasses(source);
  assert.equal(cellAt(classes, 5)?.name, 'Block');
  assert.equal(cellAt(classes, 8)?.name, 'Net');
  assert.equal(cellAt(classes, 2), undefined);
});

test('input specs: one per input, dtype optional, separated by ; or spaces', () => {
  assert.deepEqual(parseInputSpecs('2,3,32,32:float32; 8x128:int32'), [
    '2,3,32,32:float32',
    '8x128:int32',
  ]);
  assert.deepEqual(parseInputSpecs(' 4,4 '), ['4,4']);
  assert.equal(parseInputSpecs('2,,3'), undefined);
  assert.equal(parseInputSpecs('2,3:complex'), undefined);
  assert.equal(parseInputSpecs(''), undefined);
  assert.equal(validateInputSpecs('1,3,32,32'), undefined);
  assert.ok(validateInputSpecs('abc'));
});

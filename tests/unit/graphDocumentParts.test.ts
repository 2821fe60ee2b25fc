// A large graph document goes to the view in parts and comes back whole (documentParts.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentMessages, PartAssembler } from '../../extension/src/contracts/documentParts';
import type { ToGraphView } from '../../extension/src/contracts/messages';
import { synthGraph } from './fixtures/synthGraph';

type Part = Extract<ToGraphView, { type: 'loadPart' }>;
const parts = (messages: ToGraphView[]): Part[] =>
  messages.flatMap((m) => (m.type === 'loadPart' ? [m] : []));

test('a small document goes as one load message', () => {
  const doc = synthGraph(1, 3);
  const [only, ...rest] = documentMessages(doc, 't');
  assert.equal(rest.length, 0);
  assert.equal(only?.type, 'load');
});

test('a document over the part size goes in parts that join back to it', () => {
  const doc = synthGraph(1, 20);
  const messages = documentMessages(doc, 't', { file: '/x.json' }, 10_000);
  assert.ok(messages.length > 3, `${messages.length} parts`);
  const assembler = new PartAssembler();
  const results = parts(messages).map((m) => assembler.add(m));
  assert.equal(results.length, messages.length, 'every message is a part');
  assert.ok(
    results.slice(0, -1).every((r) => r === undefined),
    'only the last part completes',
  );
  assert.deepEqual(results.at(-1), doc);
});

test('a part out of order is an error, and the next document starts clean', () => {
  const doc = synthGraph(1, 20);
  const [first, , third, ...rest] = parts(documentMessages(doc, 't', undefined, 10_000));
  assert.ok(first && third && rest.length > 0);
  const assembler = new PartAssembler();
  assembler.add(first);
  assert.throws(() => assembler.add(third), /part 3 of \d+ came out of order/);
  let last;
  for (const part of parts(documentMessages(doc, 't', undefined, 10_000)))
    last = assembler.add(part);
  assert.deepEqual(last, doc);
});

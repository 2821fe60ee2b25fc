// The pure half of the notebook controller: bridge lines, MIME bundles → output items and the
// metadata the ipynb serializer reads back, stream batching, and notebook affinity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importsMindSpore } from '../../extension/src/notebook/affinity';
import { LineSplitter, parseBridgeLine, sendLine } from '../../extension/src/notebook/bridgeWire';
import {
  bundleItems,
  displayId,
  errorContent,
  errorItemValue,
  outputMetadata,
  STREAM_MIME,
  streamItem,
} from '../../extension/src/notebook/mimeBundle';
import { StreamBatch } from '../../extension/src/notebook/streamBatch';

const text = (data: Uint8Array) => new TextDecoder().decode(data);

test('bridge lines: events parse, anything else is ignored', () => {
  assert.deepEqual(parseBridgeLine('{"event": "started", "kernel_pid": 12}'), {
    event: 'started',
    kernel_pid: 12,
  });
  assert.equal(parseBridgeLine('stray print'), undefined);
  assert.equal(parseBridgeLine('{"event": "unknown"}'), undefined);
  assert.equal(parseBridgeLine('{"event": '), undefined);
});

test('lines split across chunks are joined; the unfinished tail waits', () => {
  const lines = new LineSplitter();
  assert.deepEqual(lines.push('{"a":1}\n{"b"'), ['{"a":1}']);
  assert.deepEqual(lines.push(':2}\n'), ['{"b":2}']);
  assert.deepEqual(lines.push(''), []);
});

test('a send line is one JSON object with the msg_id the reply will name', () => {
  const line = sendLine('control', 'debug_request', { seq: 1 }, 'id-1');
  assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'));
  assert.deepEqual(JSON.parse(line), {
    op: 'send',
    channel: 'control',
    msg_type: 'debug_request',
    content: { seq: 1 },
    msg_id: 'id-1',
  });
});

test('every MIME type of a bundle becomes an item: base64 images as bytes', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');
  const items = bundleItems({
    'text/plain': 'x',
    'text/html': ['<b>', 'x</b>'],
    'image/png': png,
    'image/svg+xml': '<svg/>',
    'application/json': { k: [1, 2] },
    'text/markdown': '**m**',
    'application/vnd.mindscope.graph+json': { version: 1, nodes: [] },
  });
  const byMime = new Map(items.map((i) => [i.mime, i.data]));
  assert.equal(items.length, 7);
  assert.deepEqual([...(byMime.get('image/png') ?? [])], [0x89, 0x50, 0x4e, 0x47]);
  assert.equal(text(byMime.get('text/html') ?? new Uint8Array()), '<b>x</b>');
  assert.equal(text(byMime.get('image/svg+xml') ?? new Uint8Array()), '<svg/>');
  assert.deepEqual(JSON.parse(text(byMime.get('application/json') ?? new Uint8Array())), {
    k: [1, 2],
  });
  assert.deepEqual(
    JSON.parse(text(byMime.get('application/vnd.mindscope.graph+json') ?? new Uint8Array())),
    { version: 1, nodes: [] },
  );
});

test('streams use the MIME types VS Code and the ipynb serializer agree on', () => {
  assert.equal(streamItem('stdout', 'a').mime, STREAM_MIME.stdout);
  assert.equal(streamItem('stderr', 'a').mime, STREAM_MIME.stderr);
  assert.equal(text(streamItem('stdout', 'a\n').data), 'a\n');
});

test('output metadata carries outputType, executionCount and the original error', () => {
  const content = { data: {}, metadata: { isolated: true }, transient: { display_id: 'd' } };
  assert.deepEqual(outputMetadata('execute_result', content, 3), {
    outputType: 'execute_result',
    metadata: { isolated: true },
    transient: { display_id: 'd' },
    executionCount: 3,
  });
  assert.deepEqual(outputMetadata('stream', {}), { outputType: 'stream' });
  const error = { ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: ['a', 'b'] };
  assert.deepEqual(outputMetadata('error', error), {
    outputType: 'error',
    originalError: { output_type: 'error', ...error },
  });
  assert.equal(displayId(content), 'd');
  assert.equal(displayId({}), undefined);
});

test('an error keeps its ANSI traceback as the stack; odd content gets defaults', () => {
  const value = errorItemValue(
    errorContent({ ename: 'E', evalue: 'v', traceback: ['\x1b[31mE\x1b[39m', 'line'] }),
  );
  assert.deepEqual(value, { name: 'E', message: 'v', stack: '\x1b[31mE\x1b[39m\nline' });
  assert.deepEqual(errorContent({ traceback: [1, 'x'] }), {
    ename: 'Error',
    evalue: '',
    traceback: ['x'],
  });
});

test('stream text batches: adjacent chunks of one stream merge, order across streams kept', () => {
  const batch = new StreamBatch();
  for (let i = 0; i < 10_000; i++) batch.push('stdout', `line ${i}\n`);
  batch.push('stderr', 'warn\n');
  batch.push('stdout', 'after\n');
  const chunks = batch.take();
  assert.equal(chunks.length, 3);
  assert.equal(chunks[0]?.text.split('\n').length, 10_001);
  assert.deepEqual(chunks.slice(1), [
    { name: 'stderr', text: 'warn\n' },
    { name: 'stdout', text: 'after\n' },
  ]);
  assert.ok(batch.empty);
});

test('MindScope is preferred for notebooks that import mindspore', () => {
  assert.ok(importsMindSpore(['x = 1', 'import mindspore as ms']));
  assert.ok(importsMindSpore(['from mindspore import nn']));
  assert.ok(importsMindSpore(['if True:\n    import mindspore']));
  assert.ok(!importsMindSpore(['import mindspore_lite', '# import mindspore', 'import numpy']));
});

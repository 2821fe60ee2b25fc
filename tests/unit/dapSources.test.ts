import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DapMessage } from '../../extension/src/notebook/kernelAccess';
import {
  fromKernel,
  toKernel,
  unverifiedBreakpoints,
} from '../../extension/src/notebook/debug/dapSources';

const CELL = 'vscode-notebook-cell:/w/nb.ipynb#W1sZmlsZQ%3D%3D';
const FILE = '/tmp/ipykernel_42/919586762.py';
const fileFor = (uri: string) => (uri === CELL ? FILE : undefined);
const cellFor = (file: string) =>
  file === FILE ? { path: CELL, name: 'nb.ipynb, cell 2' } : undefined;

test('setBreakpoints on a cell names its kernel file; the request itself is not changed', () => {
  const request: DapMessage = {
    seq: 3,
    type: 'request',
    command: 'setBreakpoints',
    arguments: { source: { path: CELL, name: 'nb.ipynb' }, breakpoints: [{ line: 6 }] },
  };
  const sent = toKernel(request, fileFor);
  assert.deepEqual(sent.arguments, {
    source: { path: FILE, name: 'nb.ipynb' },
    breakpoints: [{ line: 6 }],
  });
  assert.equal((request.arguments as { source: { path: string } }).source.path, CELL);
});

test('breakpoints in workspace files and requests without sources pass through', () => {
  const request: DapMessage = {
    seq: 4,
    type: 'request',
    command: 'setBreakpoints',
    arguments: { source: { path: '/w/model.py' }, breakpoints: [{ line: 3 }] },
  };
  assert.deepEqual(toKernel(request, fileFor), request);
  const cont: DapMessage = {
    seq: 5,
    type: 'request',
    command: 'continue',
    arguments: { threadId: 1 },
  };
  assert.deepEqual(toKernel(cont, fileFor), cont);
});

test('stack frames in a cell file point at the cell; others keep their file', () => {
  const reply: DapMessage = {
    seq: 9,
    type: 'response',
    command: 'stackTrace',
    success: true,
    request_seq: 6,
    body: {
      stackFrames: [
        { id: 1, name: 'construct', line: 7, source: { path: FILE, sourceReference: 0 } },
        { id: 2, name: 'forward', line: 3, source: { path: '/w/model.py' } },
        { id: 3, name: '<frozen>', line: 1 },
      ],
      totalFrames: 3,
    },
  };
  const frames = (fromKernel(reply, cellFor).body as { stackFrames: unknown[] }).stackFrames;
  assert.deepEqual(frames, [
    {
      id: 1,
      name: 'construct',
      line: 7,
      source: { path: CELL, name: 'nb.ipynb, cell 2', sourceReference: 0 },
    },
    { id: 2, name: 'forward', line: 3, source: { path: '/w/model.py' } },
    { id: 3, name: '<frozen>', line: 1 },
  ]);
});

test('breakpoint events, setBreakpoints replies, scopes and loaded sources are mapped back', () => {
  const event: DapMessage = {
    seq: 1,
    type: 'event',
    event: 'breakpoint',
    body: {
      reason: 'changed',
      breakpoint: { id: 1, verified: true, line: 7, source: { path: FILE } },
    },
  };
  const bp = (fromKernel(event, cellFor).body as { breakpoint: { source: { path: string } } })
    .breakpoint;
  assert.equal(bp.source.path, CELL);
  const replies: [string, unknown, (body: never) => string | undefined][] = [
    [
      'setBreakpoints',
      { breakpoints: [{ verified: true, line: 7, source: { path: FILE } }] },
      (b: { breakpoints: { source: { path: string } }[] }) => b.breakpoints[0]?.source.path,
    ],
    [
      'scopes',
      { scopes: [{ name: 'Locals', variablesReference: 4, source: { path: FILE } }] },
      (b: { scopes: { source: { path: string } }[] }) => b.scopes[0]?.source.path,
    ],
    [
      'loadedSources',
      { sources: [{ path: FILE }, { path: '/w/model.py' }] },
      (b: { sources: { path: string }[] }) => b.sources.map((s) => s.path).join(' '),
    ],
  ];
  for (const [command, body, read] of replies) {
    const mapped = fromKernel({ seq: 2, type: 'response', command, success: true, body }, cellFor);
    const expected = command === 'loadedSources' ? `${CELL} /w/model.py` : CELL;
    assert.equal(read(mapped.body as never), expected, command);
  }
});

test('a failed reply is relayed unchanged', () => {
  const reply: DapMessage = {
    seq: 2,
    type: 'response',
    command: 'stackTrace',
    success: false,
    message: 'no thread',
  };
  assert.deepEqual(fromKernel(reply, cellFor), reply);
});

test('breakpoints the kernel cannot take are answered unverified, one per breakpoint asked', () => {
  const request: DapMessage = {
    seq: 7,
    type: 'request',
    command: 'setBreakpoints',
    arguments: {
      source: { path: 'vscode-notebook-cell:/w/other.ipynb#x' },
      breakpoints: [{ line: 1 }, { line: 4 }],
    },
  };
  const reply = unverifiedBreakpoints(request, 'not here');
  assert.equal(reply.request_seq, 7);
  assert.equal(reply.success, true);
  assert.deepEqual(reply.body, {
    breakpoints: [
      { verified: false, message: 'not here' },
      { verified: false, message: 'not here' },
    ],
  });
});

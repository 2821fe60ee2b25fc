// Rewrites the `source` objects of DAP messages between VS Code's names (a cell's URI string)
// and the kernel's (the cell's file). Which messages carry sources follows the DAP
// specification and vscode-jupyter's `getMessageSourceAndHookIt`. Pure: no `vscode` import.
import type { DapMessage } from '../kernelAccess';

/** The fields of a DAP `Source` this rewriting touches. */
export interface DapSource {
  name?: string;
  path?: string;
  sourceReference?: number;
}

/** Where a kernel file shows in VS Code. */
export interface CellSource {
  path: string;
  name: string;
}

type Holder = { source?: DapSource } | undefined;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): Holder[] {
  return Array.isArray(value) ? value.map(record) : [];
}

/** The objects of `msg` that hold a `source` field (mutable views into `msg`). */
export function sourceHolders(msg: DapMessage): Holder[] {
  const args = record(msg.arguments);
  const body = record(msg.body);
  if (msg.type === 'request') {
    switch (msg.command) {
      case 'setBreakpoints':
      case 'breakpointLocations':
      case 'source':
      case 'gotoTargets':
        return [args];
      default:
        return [];
    }
  }
  if (msg.type === 'event') {
    switch (msg.event) {
      case 'output':
      case 'loadedSource':
        return [body];
      case 'breakpoint':
        return [record(body?.breakpoint)];
      default:
        return [];
    }
  }
  if (msg.success === false || !body) return [];
  switch (msg.command) {
    case 'stackTrace':
      return list(body.stackFrames);
    case 'scopes':
      return list(body.scopes);
    case 'setBreakpoints':
    case 'setFunctionBreakpoints':
      return list(body.breakpoints);
    case 'loadedSources':
      // The sources themselves: wrap each so it is rewritten in place like the others.
      return list(body.sources).map((source) => ({ source: source as DapSource }));
    default:
      return [];
  }
}

function rewrite(msg: DapMessage, change: (source: DapSource) => void): DapMessage {
  const copy = structuredClone(msg);
  for (const holder of sourceHolders(copy)) {
    const source = holder?.source;
    if (source && typeof source.path === 'string') change(source);
  }
  return copy;
}

/** VS Code → kernel: a cell URI becomes the cell's file; other paths pass through. */
export function toKernel(msg: DapMessage, fileFor: (cellUri: string) => string | undefined) {
  return rewrite(msg, (source) => {
    const file = source.path === undefined ? undefined : fileFor(source.path);
    if (file !== undefined) source.path = file;
  });
}

/** Kernel → VS Code: a cell file becomes the cell's URI (VS Code opens the cell editor). */
export function fromKernel(msg: DapMessage, cellFor: (file: string) => CellSource | undefined) {
  return rewrite(msg, (source) => {
    const cell = source.path === undefined ? undefined : cellFor(source.path);
    if (cell === undefined) return;
    source.path = cell.path;
    source.name = cell.name;
    // The cell's text is in VS Code already: never ask the kernel for it by reference.
    source.sourceReference = 0;
  });
}

/** The answer to a `setBreakpoints` request the kernel cannot take: every breakpoint unverified. */
export function unverifiedBreakpoints(request: DapMessage, message: string): DapMessage {
  const asked = record(request.arguments)?.breakpoints;
  const count = Array.isArray(asked) ? asked.length : 0;
  return {
    seq: 0,
    type: 'response',
    request_seq: request.seq,
    command: 'setBreakpoints',
    success: true,
    body: { breakpoints: Array.from({ length: count }, () => ({ verified: false, message })) },
  };
}

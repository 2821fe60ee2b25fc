// The bridge's line protocol (kernel/mindscope_kernel/bridge/wire.py), parsed without vscode so
// unit tests can run it.

export type Channel = 'shell' | 'control' | 'stdin' | 'iopub';

export interface JupyterMessage {
  header: { msg_id: string; msg_type: string; [key: string]: unknown };
  parent_header: { msg_id?: string; msg_type?: string; [key: string]: unknown };
  metadata: Record<string, unknown>;
  content: Record<string, unknown>;
}

export type BridgeEvent =
  | { event: 'started'; kernel_pid: number | null }
  | { event: 'missing'; python: string; packages: string[]; fatal: boolean }
  | { event: 'message'; channel: Channel; msg: JupyterMessage }
  | { event: 'died'; exit_code: number | null }
  | { event: 'failed'; message: string }
  | { event: 'error'; message: string }
  | { event: 'stopped' };

const EVENTS = new Set(['started', 'missing', 'message', 'died', 'failed', 'error', 'stopped']);

/** One stdout line of the bridge, or undefined for anything else (stray prints). */
export function parseBridgeLine(line: string): BridgeEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as { event?: unknown };
    return typeof value.event === 'string' && EVENTS.has(value.event)
      ? (value as BridgeEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a stream of chunks into complete lines, keeping the unfinished tail. */
export class LineSplitter {
  private tail = '';

  push(chunk: string): string[] {
    const lines = (this.tail + chunk).split('\n');
    this.tail = lines.pop() ?? '';
    return lines;
  }
}

export function sendLine(
  channel: Exclude<Channel, 'iopub'>,
  msgType: string,
  content: unknown,
  msgId: string,
): string {
  return `${JSON.stringify({ op: 'send', channel, msg_type: msgType, content, msg_id: msgId })}\n`;
}

export const SHUTDOWN_LINE = `${JSON.stringify({ op: 'shutdown' })}\n`;

// The `summary --follow` stream: newline-delimited JSON documents, then a status line. Pure.
import type { SummaryDocument } from '../contracts/summaryDocument';
import type { RuntimeStatus } from '../runtime/cli';

export type FollowItem =
  { kind: 'document'; doc: SummaryDocument } | { kind: 'status'; status: RuntimeStatus };

/** Splits chunks into complete lines, keeping a partial last line for the next chunk. */
export class LineBuffer {
  private partial = '';

  push(chunk: string): string[] {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    return lines.filter((l) => l.trim());
  }
}

export function parseFollowLine(line: string): FollowItem | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { kind?: unknown; ok?: unknown };
  if (record.kind === 'mindscope.summary')
    return { kind: 'document', doc: value as SummaryDocument };
  if (typeof record.ok === 'boolean') return { kind: 'status', status: value as RuntimeStatus };
  return undefined;
}

export interface FollowOptions {
  /** Seconds between polls of the files' sizes. */
  interval?: number;
  /** Only these tags (globs). */
  tags?: readonly string[];
}

export function followArgs(root: string, options: FollowOptions = {}): string[] {
  const args = ['summary', root, '--follow', '--interval', String(options.interval ?? 0.2)];
  for (const tag of options.tags ?? []) args.push('--tag', tag);
  return [...args, '--quiet'];
}

// Starts the Python children that python/child.ts describes: the one place that calls spawn or
// execFile for them, so none can forget the folder or environment child.ts chose.
import {
  execFile,
  spawn,
  type ChildProcessByStdio,
  type ChildProcessWithoutNullStreams,
} from 'node:child_process';
import type { Readable } from 'node:stream';
import { pythonChild, type PythonChildOptions } from './child';

/** `stdin: 'pipe'` for a child that is talked to (the kernel bridge); else stdin is closed. */
export function spawnPythonChild(
  o: PythonChildOptions & { stdin: 'pipe' },
): ChildProcessWithoutNullStreams;
export function spawnPythonChild(
  o: PythonChildOptions & { stdin?: 'ignore' },
): ChildProcessByStdio<null, Readable, Readable>;
export function spawnPythonChild(
  o: PythonChildOptions & { stdin?: 'pipe' | 'ignore' },
): ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable> {
  const run = pythonChild(o);
  const stdio = [o.stdin ?? 'ignore', 'pipe', 'pipe'] as const;
  return spawn(run.command, run.args, { cwd: run.cwd, env: run.env, stdio: [...stdio] }) as
    ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>;
}

export interface ChildOutput {
  /** Set when the child could not start, timed out, or exited non-zero. */
  error: Error | null;
  stdout: string;
  stderr: string;
}

/** Runs a short-lived child to completion; never rejects (the caller reads `error`). */
export function execPythonChild(
  o: PythonChildOptions,
  limits: { timeoutMs?: number; maxBuffer?: number } = {},
): Promise<ChildOutput> {
  const run = pythonChild(o);
  const options = { cwd: run.cwd, env: run.env, timeout: limits.timeoutMs, maxBuffer: limits.maxBuffer }; // prettier-ignore
  return new Promise((resolve) => {
    execFile(run.command, run.args, options, (error, stdout, stderr) =>
      resolve({ error, stdout, stderr }),
    );
  });
}

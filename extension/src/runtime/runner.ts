// Runs the runtime CLI in the user's interpreter under a cancellable progress notification.
import * as vscode from 'vscode';
import { getLog } from '../logging';
import { resolveInterpreter } from '../python/interpreter';
import type { ChildRole } from '../python/child';
import { spawnPythonChild } from '../python/spawn';
import {
  describeError,
  parseStatus,
  progressText,
  RUNTIME_MODULE,
  type RuntimeStatus,
} from './cli';
import { runtimeEnv } from './env';

export class RuntimeFailure extends Error {
  constructor(
    message: string,
    readonly status?: RuntimeStatus,
  ) {
    super(message);
  }
}

export class RuntimeCancelled extends Error {}

export interface RunOptions {
  title: string;
  /** The runtime CLI's arguments (after `python -m mindscope_runtime`). */
  args: string[];
  /** `user-code` runs import the user's model (trusted only) and run in `cwd`. */
  role: ChildRole;
  cwd?: string;
  extensionPath: string;
  resource?: vscode.Uri;
}

export async function interpreterFor(resource?: vscode.Uri): Promise<string> {
  const choice = await resolveInterpreter(resource);
  if (!choice) {
    throw new RuntimeFailure('No Python interpreter found: set "mindscope.python".');
  }
  return choice.command;
}

export async function runRuntime(o: RunOptions): Promise<RuntimeStatus> {
  const python = await interpreterFor(o.resource);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: o.title, cancellable: true },
    (progress, token) => spawnRuntime(python, o, token, (m) => progress.report({ message: m })),
  );
}

function spawnRuntime(
  python: string,
  o: RunOptions,
  token: vscode.CancellationToken,
  report: (message: string) => void,
): Promise<RuntimeStatus> {
  const log = getLog();
  const folder = o.role === 'user-code' ? o.cwd : o.extensionPath;
  log.info(`runtime: ${python} -m ${RUNTIME_MODULE} ${o.args.join(' ')} (in ${folder ?? '?'})`);
  return new Promise((resolve, reject) => {
    const child = spawnPythonChild({
      python,
      extensionPath: o.extensionPath,
      module: RUNTIME_MODULE,
      args: o.args,
      env: runtimeEnv(o.extensionPath, process.env),
      role: o.role,
      cwd: o.cwd,
    });
    let stdout = '';
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        log.info(`runtime: ${line}`);
        const text = progressText(line);
        if (text) report(text);
      }
    });
    const cancel = token.onCancellationRequested(() => {
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3000).unref();
    });
    child.on('error', (e) => {
      cancel.dispose();
      reject(new RuntimeFailure(`Could not start ${python}: ${e.message}`));
    });
    child.on('close', (code) => {
      cancel.dispose();
      if (token.isCancellationRequested) {
        reject(new RuntimeCancelled('cancelled'));
        return;
      }
      const status = parseStatus(stdout);
      if (status?.ok) resolve(status);
      else if (status?.error) reject(new RuntimeFailure(describeError(status.error), status));
      else reject(new RuntimeFailure(`the runtime exited with code ${code ?? '?'} and no status`));
    });
  });
}

/** Shows a failure with the runtime's message, a link to the logs and, when known, the line. */
export async function reportFailure(what: string, e: unknown): Promise<void> {
  if (e instanceof RuntimeCancelled) return;
  const message = e instanceof Error ? e.message : String(e);
  getLog().error(`${what} failed: ${message}`);
  const error = e instanceof RuntimeFailure ? e.status?.error : undefined;
  const actions = error?.file ? ['Show Logs', 'Go to Error'] : ['Show Logs'];
  const choice = await vscode.window.showErrorMessage(`MindScope: ${what} failed: ${message}`, ...actions);
  if (choice === 'Show Logs') getLog().show();
  if (choice === 'Go to Error' && error?.file) {
    const line = Math.max(0, (error.line ?? 1) - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(error.file), {
      selection: new vscode.Range(line, 0, line, 0),
    });
  }
}

// A long-lived `python -m mindscope_runtime summary ROOT --follow`: it polls the files' sizes and
// reads only new records, so the dashboard gets each update within a fraction of a second
// without re-reading whole files or paying a Python start per update.
import type { ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import type { SummaryDocument } from '../contracts/summaryDocument';
import { getLog } from '../logging';
import { spawnPythonChild } from '../python/spawn';
import { describeError, RUNTIME_MODULE } from '../runtime/cli';
import { runtimeEnv } from '../runtime/env';
import { followArgs, type FollowOptions, LineBuffer, parseFollowLine } from './lines';

export interface FollowHandlers {
  document(doc: SummaryDocument): void;
  failed(message: string): void;
}

export class SummaryFollower implements vscode.Disposable {
  private child: ChildProcess | undefined;
  private stopped = false;

  constructor(
    python: string,
    readonly root: string,
    extensionPath: string,
    handlers: FollowHandlers,
    options: FollowOptions = {},
  ) {
    const log = getLog();
    const args = followArgs(root, options);
    log.info(`summary: ${python} -m ${RUNTIME_MODULE} ${args.join(' ')}`);
    // The reader imports no user code: a static child (docs/security.md).
    const child = spawnPythonChild({
      python,
      extensionPath,
      module: RUNTIME_MODULE,
      args,
      env: runtimeEnv(extensionPath, process.env),
      role: 'static',
    });
    this.child = child;
    const lines = new LineBuffer();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      // Closing the dashboard stops the child, which then reports "interrupted": not a failure.
      if (this.stopped) return;
      for (const line of lines.push(chunk)) {
        const item = parseFollowLine(line);
        if (item?.kind === 'document') handlers.document(item.doc);
        else if (item?.kind === 'status' && !item.status.ok && item.status.error) {
          handlers.failed(describeError(item.status.error));
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => log.info(`summary: ${chunk.toString().trimEnd()}`));
    child.on('error', (e) => handlers.failed(`could not start ${python}: ${e.message}`));
    child.on('close', (code) => {
      if (!this.stopped && code) log.info(`summary: follower exited with code ${code}`);
      this.child = undefined;
    });
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  dispose(): void {
    this.stopped = true;
    this.child?.kill('SIGTERM');
    this.child = undefined;
  }
}

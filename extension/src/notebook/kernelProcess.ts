// One running MindScope kernel, reached through the stdio bridge (python -m mindscope_kernel.bridge).
// Owns the bridge process; correlates replies with requests by msg_id.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { getLog } from '../logging';
import { spawnPythonChild } from '../python/spawn';
import { installCommand } from '../server/probe';
import { runtimeEnv } from '../runtime/env';
import {
  type BridgeEvent,
  type Channel,
  type JupyterMessage,
  LineSplitter,
  parseBridgeLine,
  sendLine,
  SHUTDOWN_LINE,
} from './bridgeWire';
import type { DapMessage, KernelDebugLink } from './kernelAccess';

/** A kernel that could not start: `message` is the one line shown to the user. */
export class KernelStartError extends Error {
  constructor(
    message: string,
    readonly fixCommand?: string,
  ) {
    super(message);
  }
}

const START_TIMEOUT_MS = 120_000;
const SHUTDOWN_GRACE_MS = 8_000;

export class KernelProcess implements KernelDebugLink, vscode.Disposable {
  private readonly iopubEmitter = new vscode.EventEmitter<JupyterMessage>();
  private readonly stdinEmitter = new vscode.EventEmitter<JupyterMessage>();
  private readonly debugEmitter = new vscode.EventEmitter<DapMessage>();
  private readonly exitEmitter = new vscode.EventEmitter<void>();
  private readonly replies = new Map<string, (reply: JupyterMessage) => void>();
  private startedPid: ((pid: number | null) => void) | undefined;
  private startFailed: ((e: KernelStartError) => void) | undefined;
  /** Every iopub message, for consumers that must see them in order (cell runs). */
  readonly onIopub = this.iopubEmitter.event;
  /** `input_request`s from the kernel (stdin channel). */
  readonly onStdinRequest = this.stdinEmitter.event;
  readonly onDebugEvent = this.debugEmitter.event;
  readonly onDidExit = this.exitEmitter.event;
  kernelPid: number | null = null;
  exited = false;
  /** Why the kernel ended (died, restarted, shut down). */
  deathReason: string | undefined;
  /** The kernel ends because MindScope asked it to (restart, notebook closed). */
  stopRequested = false;
  kernelInfo: Record<string, unknown> = {};
  /** The msg_id of the last message sent (the parent of what it causes). */
  lastSentId = '';
  /** busy / idle / starting, as the kernel last reported on iopub. */
  executionState = 'starting';

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly python: string,
  ) {
    const lines = new LineSplitter();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      for (const line of lines.push(chunk)) this.onLine(line);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => getLog().info(`kernel: ${chunk.trimEnd()}`));
    child.on('error', (e) => this.fail(`Could not start ${python}: ${e.message}`));
    // 'close', not 'exit': the bridge's last lines (why the kernel died) are read by then.
    child.on('close', (code) => this.onExit(code));
  }

  get bridgePid(): number | undefined {
    return this.child.pid;
  }

  /** Starts the bridge and its kernel in `cwd`; resolves once the kernel answers kernel_info. */
  static async start(python: string, extensionPath: string, cwd: string): Promise<KernelProcess> {
    // The bridge itself imports nothing from the notebook's folder; the kernel it starts runs
    // there (docs/security.md), and only in a trusted workspace (kernelRegistry.ts).
    const child = spawnPythonChild({
      python,
      extensionPath,
      module: 'mindscope_kernel.bridge',
      args: ['--cwd', cwd],
      env: runtimeEnv(extensionPath, process.env),
      role: 'static',
      stdin: 'pipe',
    });
    const kernel = new KernelProcess(child, python);
    const timer = setTimeout(
      () => kernel.fail(`The kernel did not start within ${START_TIMEOUT_MS / 1000} s.`),
      START_TIMEOUT_MS,
    );
    try {
      kernel.kernelPid = await new Promise<number | null>((resolve, reject) => {
        kernel.startedPid = resolve;
        kernel.startFailed = reject;
      });
      const info = await kernel.request('shell', 'kernel_info_request', {});
      kernel.kernelInfo = info.content;
      return kernel;
    } catch (e) {
      kernel.kill();
      throw e;
    } finally {
      clearTimeout(timer);
      kernel.startedPid = undefined;
      kernel.startFailed = undefined;
    }
  }

  /** Sends a message; returns its msg_id (the parent of everything it causes). */
  send(channel: Exclude<Channel, 'iopub'>, msgType: string, content: unknown): string {
    const id = randomUUID();
    this.lastSentId = id;
    if (!this.exited) this.child.stdin.write(sendLine(channel, msgType, content, id));
    return id;
  }

  /** Sends a request on shell or control and resolves with its reply; rejects if the kernel ends. */
  request(
    channel: 'shell' | 'control',
    msgType: string,
    content: unknown,
  ): Promise<JupyterMessage> {
    if (this.exited)
      return Promise.reject(new Error(this.deathReason ?? 'The kernel has stopped.'));
    return new Promise((resolve, reject) => {
      const id = this.send(channel, msgType, content);
      const gone = this.onDidExit(() => {
        this.replies.delete(id);
        reject(new Error(this.deathReason ?? 'The kernel has stopped.'));
      });
      this.replies.set(id, (reply) => {
        gone.dispose();
        resolve(reply);
      });
    });
  }

  async debugRequest(request: DapMessage): Promise<DapMessage> {
    const reply = await this.request('control', 'debug_request', request);
    return reply.content as unknown as DapMessage;
  }

  interrupt(): void {
    // The kernelspec says interrupt_mode "message": SIGINT would hit MindSpore's handler.
    this.send('control', 'interrupt_request', {});
  }

  /** Asks the kernel to shut down; kills the bridge if it has not gone after a grace period. */
  async shutdown(reason = 'The kernel was shut down.'): Promise<void> {
    if (this.exited) return;
    this.stopRequested = true;
    this.deathReason ??= reason;
    const gone = new Promise<void>((resolve) => this.onDidExit(resolve));
    this.child.stdin.write(SHUTDOWN_LINE);
    const timer = setTimeout(() => this.kill(), SHUTDOWN_GRACE_MS);
    await gone;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.exited) return;
    this.child.kill('SIGTERM');
    setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, 3000).unref();
  }

  private onLine(line: string): void {
    const event = parseBridgeLine(line);
    if (!event) {
      if (line.trim()) getLog().info(`kernel bridge: ${line}`);
      return;
    }
    this.onEvent(event);
  }

  private onEvent(event: BridgeEvent): void {
    switch (event.event) {
      case 'started':
        this.startedPid?.(event.kernel_pid);
        break;
      case 'missing': {
        const command = installCommand(this.python, event.packages);
        const message = `MindScope needs ${event.packages.join(', ')} in ${this.python}. Run: ${command}`;
        if (event.fatal) this.fail(message, command);
        else {
          // The kernel still starts (as a Python kernel); say once what would make it MindSpore's.
          getLog().warn(message);
          void vscode.window.showWarningMessage(`MindScope: ${message}`);
        }
        break;
      }
      case 'message':
        this.onMessage(event.channel, event.msg);
        break;
      case 'died':
        this.deathReason = `The kernel died (exit code ${event.exit_code ?? '?'}).`;
        break;
      case 'failed':
        this.fail(`The MindScope kernel could not start: ${event.message}`);
        break;
      case 'error':
        getLog().warn(`kernel bridge: ${event.message}`);
        break;
      case 'stopped':
        break;
    }
  }

  private onMessage(channel: Channel, msg: JupyterMessage): void {
    if (channel === 'iopub') {
      if (msg.header.msg_type === 'status' && typeof msg.content.execution_state === 'string') {
        this.executionState = msg.content.execution_state;
      }
      if (msg.header.msg_type === 'debug_event') {
        this.debugEmitter.fire(msg.content as unknown as DapMessage);
      }
      this.iopubEmitter.fire(msg);
    } else if (channel === 'stdin') {
      this.stdinEmitter.fire(msg);
    } else {
      const parent = msg.parent_header.msg_id;
      const resolve = parent === undefined ? undefined : this.replies.get(parent);
      if (resolve && parent !== undefined) {
        this.replies.delete(parent);
        resolve(msg);
      }
    }
  }

  private fail(message: string, fixCommand?: string): void {
    getLog().error(message);
    if (this.startFailed) this.startFailed(new KernelStartError(message, fixCommand));
    else this.deathReason ??= message;
  }

  private onExit(code: number | null): void {
    this.exited = true;
    this.deathReason ??= `The kernel bridge exited (code ${code ?? '?'}).`;
    if (this.startFailed) {
      this.startFailed(new KernelStartError(`The kernel bridge exited (code ${code ?? '?'}).`));
    }
    this.exitEmitter.fire();
  }

  dispose(): void {
    this.kill();
    this.iopubEmitter.dispose();
    this.stdinEmitter.dispose();
    this.debugEmitter.dispose();
    this.exitEmitter.dispose();
  }
}

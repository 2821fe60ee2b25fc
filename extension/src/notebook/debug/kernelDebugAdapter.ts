// The inline debug adapter of a notebook: VS Code's DAP requests go to the kernel as
// `debug_request`s on the control channel, the kernel's `debug_event`s come back as events, and
// cell URIs are swapped for the kernel's cell files on the way (like vscode-jupyter's
// KernelDebugAdapter). No Python extension and no debugpy adapter process of our own.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DapMessage, KernelDebugLink } from '../kernelAccess';
import { CellFileMap, kernelCode, schemeFromDebugInfo, type CellText } from './cellFiles';
import { fromKernel, toKernel, unverifiedBreakpoints, type CellSource } from './dapSources';

/** Our own requests to the kernel (dumpCell, debugInfo) never reuse one of VS Code's seq numbers. */
const OWN_SEQ_START = 1_000_000;

export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

function codeCells(notebook: vscode.NotebookDocument): CellText[] {
  return notebook
    .getCells()
    .filter((cell) => cell.kind === vscode.NotebookCellKind.Code)
    .map((cell) => ({ uri: cell.document.uri.toString(), code: cell.document.getText() }));
}

function isCellUri(written: string): boolean {
  return written.startsWith('vscode-notebook-cell');
}

/** The cell whose URI VS Code wrote as `written` (a cell URI string, maybe encoded differently). */
export function cellNamed(
  notebook: vscode.NotebookDocument,
  written: string,
): vscode.NotebookCell | undefined {
  if (!isCellUri(written)) return undefined;
  let normal = written;
  try {
    normal = vscode.Uri.parse(written).toString();
  } catch {
    // not a URI: compare as written
  }
  return notebook
    .getCells()
    .find((cell) => [written, normal].includes(cell.document.uri.toString()));
}

export interface AdapterHooks {
  /** `configurationDone` succeeded: the breakpoints are in place. */
  configured(): void;
  /** VS Code let go of the adapter (the session ended). */
  disposed(): void;
}

export class KernelDebugAdapter implements vscode.DebugAdapter {
  private readonly sent = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.sent.event;
  private readonly files: CellFileMap;
  private readonly subscriptions: vscode.Disposable[] = [];
  private ownSeq = OWN_SEQ_START;
  private exited = false;

  constructor(
    private readonly link: KernelDebugLink,
    private readonly notebook: vscode.NotebookDocument,
    private readonly hooks: AdapterHooks,
  ) {
    this.files = new CellFileMap(() => codeCells(notebook));
    this.subscriptions.push(
      link.onDebugEvent((event) => this.send(fromKernel(event, (f) => this.cellSource(f)))),
      link.onDidExit(() => this.kernelExited()),
    );
  }

  handleMessage(message: vscode.DebugProtocolMessage): void {
    void this.handle(message as DapMessage);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.sent.dispose();
    this.hooks.disposed();
  }

  private async handle(request: DapMessage): Promise<void> {
    // Responses to reverse requests: this adapter advertises none (no runInTerminal).
    if (request.type !== 'request') return;
    const command = request.command ?? '';
    try {
      if (this.exited) throw new Error('the kernel has exited');
      if (command === 'setBreakpoints' && !(await this.dumpCellOf(request))) {
        // A cell of another notebook: that notebook's kernel is not this one.
        this.send(
          unverifiedBreakpoints(
            request,
            'MindScope: this cell is not in the notebook being debugged.',
          ),
        );
        return;
      }
      const reply = await this.link.debugRequest(toKernel(request, (u) => this.fileFor(u)));
      if (command === 'attach' && reply.success !== false) await this.afterAttach();
      const response: DapMessage = {
        ...reply,
        type: 'response',
        request_seq: request.seq,
        command,
      };
      this.send(fromKernel(response, (f) => this.cellSource(f)));
      if (command === 'configurationDone' && reply.success !== false) this.hooks.configured();
    } catch (e) {
      const message = `MindScope: ${command} failed: ${oneLine(e)}`;
      this.send({
        seq: 0,
        type: 'response',
        request_seq: request.seq,
        command,
        success: false,
        message,
      });
    }
  }

  private send(message: DapMessage): void {
    this.sent.fire(message);
  }

  private async own(command: string, args?: unknown): Promise<DapMessage> {
    const reply = await this.link.debugRequest({
      seq: this.ownSeq++,
      type: 'request',
      command,
      arguments: args ?? {},
    });
    if (reply.success === false) throw new Error(reply.message ?? `${command} was refused`);
    return reply;
  }

  /** The kernel tells how it names cell files; threads stopped by an earlier front-end resume
   * (vscode-jupyter does the same after attach). */
  private async afterAttach(): Promise<void> {
    const info = await this.own('debugInfo');
    this.files.setScheme(schemeFromDebugInfo(info.body));
    const stopped = (info.body as { stoppedThreads?: unknown } | undefined)?.stoppedThreads;
    for (const threadId of Array.isArray(stopped) ? (stopped as unknown[]) : []) {
      await this.own('continue', { threadId });
    }
  }

  /** A breakpoint in a cell: the kernel writes the cell's file and names it. False for a cell
   * of another notebook; true for this notebook's cells and for files. */
  private async dumpCellOf(request: DapMessage): Promise<boolean> {
    const written = (request.arguments as { source?: { path?: string } } | undefined)?.source?.path;
    if (!written || !isCellUri(written)) return true;
    const cell = cellNamed(this.notebook, written);
    if (!cell) return false;
    const reply = await this.own('dumpCell', { code: kernelCode(cell.document.getText()) });
    const file = (reply.body as { sourcePath?: unknown } | undefined)?.sourcePath;
    if (typeof file !== 'string') throw new Error('dumpCell named no file');
    this.files.remember(written, file);
    this.files.remember(cell.document.uri.toString(), file);
    return true;
  }

  private fileFor(written: string): string | undefined {
    return this.files.fileFor(written);
  }

  private cellSource(file: string): CellSource | undefined {
    const uri = this.files.cellFor(file);
    const cell = uri === undefined ? undefined : cellNamed(this.notebook, uri);
    if (!cell || uri === undefined) return undefined;
    return { path: uri, name: `${path.basename(this.notebook.uri.path)}, cell ${cell.index + 1}` };
  }

  private kernelExited(): void {
    if (this.exited) return;
    this.exited = true;
    this.send({
      seq: 0,
      type: 'event',
      event: 'output',
      body: {
        category: 'console',
        output: 'MindScope: the kernel exited; the debug session ends.\n',
      },
    });
    this.send({ seq: 0, type: 'event', event: 'terminated', body: {} });
  }
}

// One kernel per notebook: started on first need (trusted workspaces only), replaced after it
// dies, shut down when the notebook closes or the extension stops.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getLog } from '../logging';
import { interpreterFor } from '../runtime/runner';
import { KernelProcess, KernelStartError } from './kernelProcess';
import { folderFor } from '../workspaceFolder';

export const UNTRUSTED_MESSAGE =
  'This workspace is not trusted, so no kernel starts: trust the folder to run its cells.';

export class KernelRegistry implements vscode.Disposable {
  private readonly kernels = new Map<string, Promise<KernelProcess>>();
  private readonly live = new Map<string, KernelProcess>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  /** A notebook's kernel started, changed state or ended. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly extensionPath: string) {}

  /** The live kernel of `notebook`, if one runs or is starting. */
  running(notebook: vscode.NotebookDocument): Promise<KernelProcess> | undefined {
    return this.kernels.get(notebook.uri.toString());
  }

  /** The started, still running kernel of `notebook`, without waiting. */
  current(notebook: vscode.NotebookDocument): KernelProcess | undefined {
    const kernel = this.live.get(notebook.uri.toString());
    return kernel && !kernel.exited ? kernel : undefined;
  }

  kernelFor(notebook: vscode.NotebookDocument): Promise<KernelProcess> {
    const key = notebook.uri.toString();
    const existing = this.kernels.get(key);
    if (existing) return existing;
    const started = this.start(notebook);
    this.kernels.set(key, started);
    started.then(
      (kernel) => {
        this.live.set(key, kernel);
        kernel.onDidExit(() => {
          if (this.kernels.get(key) === started) this.kernels.delete(key);
          if (this.live.get(key) === kernel) this.live.delete(key);
          this.changeEmitter.fire(notebook.uri);
        });
        kernel.onIopub((msg) => {
          if (msg.header.msg_type === 'status') this.changeEmitter.fire(notebook.uri);
        });
        this.changeEmitter.fire(notebook.uri);
      },
      () => {
        if (this.kernels.get(key) === started) this.kernels.delete(key);
        this.changeEmitter.fire(notebook.uri);
      },
    );
    return started;
  }

  private async start(notebook: vscode.NotebookDocument): Promise<KernelProcess> {
    if (!vscode.workspace.isTrusted) throw new KernelStartError(UNTRUSTED_MESSAGE);
    const python = await interpreterFor(notebook.uri);
    const cwd = kernelCwd(notebook.uri);
    getLog().info(`kernel: starting in ${python} (cwd ${cwd}) for ${notebook.uri.toString()}`);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Starting the MindScope kernel…' },
      () => KernelProcess.start(python, this.extensionPath, cwd),
    );
  }

  async shutdown(notebook: vscode.NotebookDocument, reason?: string): Promise<void> {
    const key = notebook.uri.toString();
    const kernel = this.kernels.get(key);
    this.kernels.delete(key);
    const live = await kernel?.catch(() => undefined);
    await live?.shutdown(reason);
  }

  async shutdownAll(): Promise<void> {
    const all = [...this.kernels.values()];
    this.kernels.clear();
    await Promise.all(all.map(async (k) => (await k.catch(() => undefined))?.shutdown()));
  }

  dispose(): void {
    void this.shutdownAll();
    this.changeEmitter.dispose();
  }
}

/** The notebook's folder, as Jupyter does; an untitled notebook runs in a workspace folder
 * (the active editor's). */
export function kernelCwd(uri: vscode.Uri): string {
  if (uri.scheme === 'file') return path.dirname(uri.fsPath);
  return folderFor()?.uri.fsPath ?? os.homedir();
}

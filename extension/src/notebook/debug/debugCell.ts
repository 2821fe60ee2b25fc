// "Debug Cell": a `mindscope-notebook` debug session on the cell's notebook whose adapter is
// inline (KernelDebugAdapter). Once VS Code has sent the breakpoints (`configurationDone`) the
// cell runs through the controller, as the Run button does; when it finishes the session ends.
import * as vscode from 'vscode';
import { getLog } from '../../logging';
import type { NotebookKernels } from '../kernelAccess';
import { KernelDebugAdapter, oneLine } from './kernelDebugAdapter';

export const NOTEBOOK_DEBUG_TYPE = 'mindscope-notebook';

/** The configuration of a cell debug session (not written in launch.json by users). */
export interface NotebookDebugConfig extends vscode.DebugConfiguration {
  /** The notebook's URI. */
  notebook: string;
  /** The cell to run, by URI; without it the session attaches until stopped. */
  cell?: string;
}

export function debugCellConfig(cell: vscode.NotebookCell): NotebookDebugConfig {
  return {
    type: NOTEBOOK_DEBUG_TYPE,
    request: 'attach',
    name: `Debug Cell ${cell.index + 1}`,
    notebook: cell.notebook.uri.toString(),
    cell: cell.document.uri.toString(),
  };
}

const UNTRUSTED = 'MindScope: debugging a cell runs your code; trust this workspace first.';

class NotebookDebugSessions
  implements vscode.DebugConfigurationProvider, vscode.DebugAdapterDescriptorFactory
{
  /** Notebooks with a live session: the kernel takes one debugger at a time. */
  private readonly live = new Set<string>();

  constructor(private readonly kernels: NotebookKernels) {}

  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED);
      return undefined;
    }
    const c = config as Partial<NotebookDebugConfig>;
    c.notebook ??= vscode.window.activeNotebookEditor?.notebook.uri.toString();
    if (!c.notebook) {
      void vscode.window.showErrorMessage('MindScope: open a notebook to debug its cells.');
      return undefined;
    }
    if (this.live.has(c.notebook)) {
      void vscode.window.showWarningMessage(
        'MindScope: this notebook is being debugged already; stop that session first.',
      );
      return undefined;
    }
    return {
      ...config,
      type: NOTEBOOK_DEBUG_TYPE,
      request: 'attach',
      name: c.name ?? 'Debug Cell',
    };
  }

  async createDebugAdapterDescriptor(
    session: vscode.DebugSession,
  ): Promise<vscode.DebugAdapterDescriptor> {
    const config = session.configuration as NotebookDebugConfig;
    const notebook = vscode.workspace.notebookDocuments.find(
      (n) => n.uri.toString() === config.notebook,
    );
    if (!notebook) throw new Error(`MindScope: the notebook ${config.notebook} is not open.`);
    const cell = config.cell
      ? notebook.getCells().find((c) => c.document.uri.toString() === config.cell)
      : undefined;
    if (config.cell && !cell) throw new Error('MindScope: the cell to debug is no longer there.');
    const link = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'MindScope: connecting the debugger…' },
      () => this.kernels.kernelFor(notebook),
    );
    const key = notebook.uri.toString();
    this.live.add(key);
    const adapter = new KernelDebugAdapter(link, notebook, {
      configured: () => {
        if (cell) void this.runThenStop(session, notebook, cell);
      },
      disposed: () => this.live.delete(key),
    });
    // DebugAdapter extends the Disposable *type*; VS Code only ever calls dispose() on it.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
    return new vscode.DebugAdapterInlineImplementation(adapter);
  }

  private async runThenStop(
    session: vscode.DebugSession,
    notebook: vscode.NotebookDocument,
    cell: vscode.NotebookCell,
  ): Promise<void> {
    try {
      await this.kernels.executeCells(notebook, [cell]);
    } catch (e) {
      getLog().error(`debug: cell ${cell.index + 1} did not run: ${String(e)}`);
      void vscode.window.showErrorMessage(`MindScope: the cell did not run: ${oneLine(e)}`);
    } finally {
      getLog().info(`debug: cell ${cell.index + 1} done; ending the session`);
      await vscode.debug.stopDebugging(session);
    }
  }
}

/** The cell a command was given (cell menus pass it), else the notebook editor's selected one. */
function targetCell(arg: unknown): vscode.NotebookCell | undefined {
  const given = arg as Partial<vscode.NotebookCell> | undefined;
  if (given?.document && given.notebook) return given as vscode.NotebookCell;
  const editor = vscode.window.activeNotebookEditor;
  const index = editor?.selection.start;
  return editor && index !== undefined && index < editor.notebook.cellCount
    ? editor.notebook.cellAt(index)
    : undefined;
}

export async function debugCellCommand(arg: unknown): Promise<boolean> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(UNTRUSTED);
    return false;
  }
  const cell = targetCell(arg);
  if (!cell || cell.kind !== vscode.NotebookCellKind.Code) {
    void vscode.window.showErrorMessage('MindScope: select a code cell to debug.');
    return false;
  }
  return vscode.debug.startDebugging(undefined, debugCellConfig(cell), {
    suppressSaveBeforeStart: true,
  });
}

export function registerNotebookDebugging(kernels: NotebookKernels): vscode.Disposable {
  const sessions = new NotebookDebugSessions(kernels);
  return vscode.Disposable.from(
    vscode.debug.registerDebugConfigurationProvider(NOTEBOOK_DEBUG_TYPE, sessions),
    vscode.debug.registerDebugAdapterDescriptorFactory(NOTEBOOK_DEBUG_TYPE, sessions),
    vscode.commands.registerCommand('mindscope.debugCell', debugCellCommand),
  );
}

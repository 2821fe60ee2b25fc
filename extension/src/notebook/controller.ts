// MindScope's notebook controller for the built-in jupyter-notebook type: queues cell runs per
// notebook, reports failures in one line, and implements the seam the cell debugger uses.
import * as vscode from 'vscode';
import { getLog } from '../logging';
import { importsMindSpore } from './affinity';
import { runCell } from './cellRun';
import { DisplayUpdates } from './displayUpdates';
import type { KernelDebugLink, NotebookKernels } from './kernelAccess';
import { KernelStartError } from './kernelProcess';
import { KernelRegistry } from './kernelRegistry';

export const CONTROLLER_ID = 'mindscope-kernel';
export const CONTROLLER_LABEL = 'MindScope · MindSpore';
const NOTEBOOK_TYPE = 'jupyter-notebook';

/** What the extension API offers about notebooks: the debugger's seam plus test probes. */
export interface MindScopeNotebooks extends NotebookKernels {
  readonly controllerId: string;
  /** Whether the user (or VS Code) picked MindScope's controller for `notebook`. */
  isSelected(notebook: vscode.NotebookDocument): boolean;
  /** Process ids of the notebook's bridge and kernel while one runs. */
  processIds(
    notebook: vscode.NotebookDocument,
  ): Promise<{ bridge?: number; kernel?: number } | undefined>;
  restart(notebook: vscode.NotebookDocument): Promise<void>;
  /** Shuts every kernel down (deactivation). */
  shutdownAll(): Promise<void>;
}

export class MindScopeController implements MindScopeNotebooks, vscode.Disposable {
  readonly controllerId = CONTROLLER_ID;
  private readonly controller: vscode.NotebookController;
  private readonly selected = new Set<string>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly displays = new Map<string, DisplayUpdates>();
  private readonly disposables: { dispose(): unknown }[] = [];
  private readonly selectionEmitter = new vscode.EventEmitter<void>();
  /** The controller was picked for, or taken off, a notebook. */
  readonly onDidChangeSelection = this.selectionEmitter.event;

  constructor(readonly kernels: KernelRegistry) {
    const controller = vscode.notebooks.createNotebookController(
      CONTROLLER_ID,
      NOTEBOOK_TYPE,
      CONTROLLER_LABEL,
    );
    controller.supportedLanguages = ['python'];
    controller.supportsExecutionOrder = true;
    controller.description = 'MindScope kernel';
    controller.detail =
      'Runs and debugs cells in the MindScope kernel, with MindSpore’s graph mode';
    controller.executeHandler = (cells, notebook) => this.executeCells(notebook, cells);
    controller.interruptHandler = (notebook) => this.interrupt(notebook);
    this.controller = controller;
    this.disposables.push(
      controller,
      controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
        if (selected) this.selected.add(notebook.uri.toString());
        else this.selected.delete(notebook.uri.toString());
        this.selectionEmitter.fire();
      }),
      this.selectionEmitter,
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.updateAffinity(nb)),
      vscode.workspace.onDidCloseNotebookDocument((nb) => {
        this.selected.delete(nb.uri.toString());
        this.displays.delete(nb.uri.toString());
        void this.kernels.shutdown(nb);
      }),
    );
    for (const nb of vscode.workspace.notebookDocuments) this.updateAffinity(nb);
  }

  private updateAffinity(notebook: vscode.NotebookDocument): void {
    if (notebook.notebookType !== NOTEBOOK_TYPE) return;
    const sources = notebook
      .getCells()
      .filter((c) => c.kind === vscode.NotebookCellKind.Code)
      .map((c) => c.document.getText());
    if (importsMindSpore(sources)) {
      this.controller.updateNotebookAffinity(notebook, vscode.NotebookControllerAffinity.Preferred);
    }
  }

  isSelected(notebook: vscode.NotebookDocument): boolean {
    return this.selected.has(notebook.uri.toString());
  }

  async processIds(
    notebook: vscode.NotebookDocument,
  ): Promise<{ bridge?: number; kernel?: number } | undefined> {
    const kernel = await this.kernels.running(notebook)?.catch(() => undefined);
    if (!kernel || kernel.exited) return undefined;
    return { bridge: kernel.bridgePid, kernel: kernel.kernelPid ?? undefined };
  }

  kernelFor(notebook: vscode.NotebookDocument): Promise<KernelDebugLink> {
    return this.kernels.kernelFor(notebook);
  }

  /** Runs after whatever already runs in this notebook, as Jupyter queues cells. */
  executeCells(
    notebook: vscode.NotebookDocument,
    cells: readonly vscode.NotebookCell[],
  ): Promise<void> {
    const key = notebook.uri.toString();
    const executions = cells.map((cell) => this.controller.createNotebookCellExecution(cell));
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(() => this.runQueued(notebook, executions));
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  private async runQueued(
    notebook: vscode.NotebookDocument,
    executions: vscode.NotebookCellExecution[],
  ): Promise<void> {
    let index = 0;
    try {
      const kernel = await this.kernels.kernelFor(notebook);
      for (; index < executions.length; index++) {
        const execution = executions[index];
        if (!execution) continue;
        const code = execution.cell.document.getText();
        const result = await runCell(kernel, execution, code, this.displaysOf(notebook));
        if (result.kernelDied && !kernel.stopRequested) {
          void vscode.window.showErrorMessage(
            `MindScope: ${kernel.deathReason ?? 'The kernel died.'} The next run starts a new kernel.`,
          );
        }
        if (!result.ok) {
          index++;
          break;
        }
      }
    } catch (e) {
      this.reportStartFailure(e);
    } finally {
      // Cells queued behind a failure are not run, as Jupyter aborts them.
      for (const execution of executions.slice(index)) endUnrun(execution);
    }
  }

  private displaysOf(notebook: vscode.NotebookDocument): DisplayUpdates {
    const key = notebook.uri.toString();
    let displays = this.displays.get(key);
    if (!displays) {
      displays = new DisplayUpdates(this.controller);
      this.displays.set(key, displays);
    }
    return displays;
  }

  private reportStartFailure(e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    getLog().error(`kernel: ${message}`);
    const fix = e instanceof KernelStartError ? e.fixCommand : undefined;
    const actions = fix ? ['Copy Command', 'Show Logs'] : ['Show Logs'];
    void vscode.window.showErrorMessage(`MindScope: ${message}`, ...actions).then((choice) => {
      if (choice === 'Copy Command' && fix) void vscode.env.clipboard.writeText(fix);
      if (choice === 'Show Logs') getLog().show();
    });
  }

  private async interrupt(notebook: vscode.NotebookDocument): Promise<void> {
    const kernel = await this.kernels.running(notebook)?.catch(() => undefined);
    kernel?.interrupt();
  }

  async restart(notebook: vscode.NotebookDocument): Promise<void> {
    await this.kernels.shutdown(notebook, 'The kernel was restarted.');
    try {
      await this.kernels.kernelFor(notebook);
    } catch (e) {
      this.reportStartFailure(e);
    }
  }

  shutdownAll(): Promise<void> {
    return this.kernels.shutdownAll();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function endUnrun(execution: vscode.NotebookCellExecution): void {
  try {
    execution.end(undefined);
  } catch {
    // Already ended (the cell ran).
  }
}

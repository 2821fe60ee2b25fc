// update_display_data can target an output of any cell of the notebook (a display handle made
// in one cell, updated from another): the outputs are found by display_id.
import * as vscode from 'vscode';
import { getLog } from '../logging';

interface Shown {
  cell: vscode.NotebookCell;
  output: vscode.NotebookCellOutput;
}

export class DisplayUpdates {
  private readonly byId = new Map<string, Shown[]>();

  constructor(private readonly controller: vscode.NotebookController) {}

  add(id: string, cell: vscode.NotebookCell, output: vscode.NotebookCellOutput): void {
    this.byId.set(id, [...(this.byId.get(id) ?? []), { cell, output }]);
  }

  /** Replaces the items of every output shown under `id`; `running` is the executing cell. */
  async update(
    id: string,
    items: vscode.NotebookCellOutputItem[],
    running: vscode.NotebookCellExecution,
  ): Promise<void> {
    // Cells deleted since drop out; an output cleared since makes its replace fail, harmlessly.
    const shown = (this.byId.get(id) ?? []).filter((s) => s.cell.index >= 0);
    this.byId.set(id, shown);
    for (const { cell, output } of shown) {
      try {
        if (cell === running.cell) await running.replaceOutputItems(items, output);
        else await this.updateFinished(cell, output, items);
      } catch (e) {
        getLog().info(`kernel: display ${id} is no longer shown (${String(e)})`);
      }
    }
  }

  /** A finished cell's output changes through a short execution that keeps its summary. */
  private async updateFinished(
    cell: vscode.NotebookCell,
    output: vscode.NotebookCellOutput,
    items: vscode.NotebookCellOutputItem[],
  ): Promise<void> {
    const summary = cell.executionSummary;
    let execution: vscode.NotebookCellExecution;
    try {
      execution = this.controller.createNotebookCellExecution(cell);
    } catch (e) {
      // The cell is queued or running itself: its own run shows the update.
      getLog().info(`kernel: display update of a busy cell skipped (${String(e)})`);
      return;
    }
    execution.executionOrder = summary?.executionOrder;
    execution.start(summary?.timing?.startTime);
    try {
      await execution.replaceOutputItems(items, output);
    } finally {
      execution.end(summary?.success, summary?.timing?.endTime);
    }
  }
}

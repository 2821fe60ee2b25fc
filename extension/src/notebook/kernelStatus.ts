// The status bar shows the active notebook's MindScope kernel: starting, idle or busy.
import * as vscode from 'vscode';
import type { KernelRegistry } from './kernelRegistry';

export function kernelStatusText(state: string | undefined): string {
  switch (state) {
    case 'busy':
      return '$(loading~spin) MindScope kernel: busy';
    case 'idle':
      return '$(circle-large-outline) MindScope kernel: idle';
    case undefined:
      return '$(circle-slash) MindScope kernel: not started';
    default:
      return `$(sync~spin) MindScope kernel: ${state}`;
  }
}

export class KernelStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'mindscope.kernel',
    vscode.StatusBarAlignment.Left,
    50,
  );
  private readonly disposables: vscode.Disposable[];
  /** The text shown, for the end-to-end tests. */
  text = '';

  constructor(
    private readonly kernels: KernelRegistry,
    private readonly isSelected: (nb: vscode.NotebookDocument) => boolean,
  ) {
    this.item.name = 'MindScope kernel';
    this.item.command = 'mindscope.restartKernel';
    this.item.tooltip = 'MindScope kernel of this notebook: click to restart it';
    this.disposables = [
      kernels.onDidChange(() => void this.update()),
      vscode.window.onDidChangeActiveNotebookEditor(() => void this.update()),
    ];
    void this.update();
  }

  async update(): Promise<void> {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (!notebook || !this.isSelected(notebook)) {
      this.item.hide();
      return;
    }
    const starting = this.kernels.running(notebook);
    let state: string | undefined;
    if (starting) {
      state = 'starting';
      const kernel = await Promise.race([
        starting.catch(() => undefined),
        Promise.resolve(undefined),
      ]);
      if (kernel && !kernel.exited) state = kernel.executionState;
    }
    this.text = kernelStatusText(state);
    this.item.text = this.text;
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.item.dispose();
  }
}

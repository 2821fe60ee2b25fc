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
    onDidChangeSelection: vscode.Event<void>,
  ) {
    this.item.name = 'MindScope kernel';
    this.item.command = 'mindscope.restartKernel';
    this.item.tooltip = 'MindScope kernel of this notebook: click to restart it';
    this.disposables = [
      kernels.onDidChange(() => this.update()),
      vscode.window.onDidChangeActiveNotebookEditor(() => this.update()),
      onDidChangeSelection(() => this.update()),
    ];
    this.update();
  }

  update(): void {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (!notebook || !this.isSelected(notebook)) {
      this.item.hide();
      return;
    }
    const kernel = this.kernels.current(notebook);
    const state = kernel ? kernel.executionState : this.kernels.running(notebook) && 'starting';
    this.text = kernelStatusText(state);
    this.item.text = this.text;
    this.item.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.item.dispose();
  }
}

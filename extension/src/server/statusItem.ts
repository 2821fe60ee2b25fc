// The language status item ({} in the status bar on Python files): server state + "open logs".
import * as vscode from 'vscode';

export type ServerState =
  | { kind: 'starting'; python?: string }
  | { kind: 'running'; python: string; version: string }
  | { kind: 'stopped' }
  | { kind: 'error'; message: string };

export class ServerStatusItem implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;

  constructor() {
    this.item = vscode.languages.createLanguageStatusItem('mindscope.server', [
      { language: 'python' },
    ]);
    this.item.name = 'MindScope';
    this.item.command = { title: 'Open Logs', command: 'mindscope.showLogs' };
    this.show({ kind: 'stopped' });
  }

  show(state: ServerState): void {
    this.item.busy = state.kind === 'starting';
    this.item.severity =
      state.kind === 'error'
        ? vscode.LanguageStatusSeverity.Error
        : vscode.LanguageStatusSeverity.Information;
    switch (state.kind) {
      case 'starting':
        this.item.text = 'MindScope: starting';
        this.item.detail = state.python;
        break;
      case 'running':
        this.item.text = 'MindScope';
        this.item.detail = `Python ${state.version} · ${state.python}`;
        break;
      case 'stopped':
        this.item.text = 'MindScope: stopped';
        this.item.detail = undefined;
        break;
      case 'error':
        this.item.text = 'MindScope: error';
        this.item.detail = state.message;
        break;
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}

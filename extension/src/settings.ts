// Reads MindScope's settings. Settings that choose what to execute only count from a
// workspace the user trusts; otherwise a cloned repository could pick the interpreter.
import * as vscode from 'vscode';

export interface MindScopeSettings {
  python: string;
}

export function readSettings(resource?: vscode.Uri): MindScopeSettings {
  const config = vscode.workspace.getConfiguration('mindscope', resource);
  const python = config.inspect<string>('python');
  const value = vscode.workspace.isTrusted
    ? config.get<string>('python', '')
    : (python?.globalValue ?? python?.defaultValue ?? '');
  return { python: value.trim() };
}

export function affectsServer(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('mindscope.python');
}

/** What the server's graph-mode checker reads (`mindscope.graphMode.*`), sent at start-up. */
export function readGraphModeSettings(resource?: vscode.Uri): Record<string, unknown> {
  return { ...vscode.workspace.getConfiguration('mindscope.graphMode', resource) };
}

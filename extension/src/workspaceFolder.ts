// Multi-root workspaces: the folder a command works in is the one holding its document, not
// the first folder of the workspace.
import * as vscode from 'vscode';

/** The workspace folder of `uri`; without one, that of the active editor; else the first. */
export function folderFor(uri?: vscode.Uri): vscode.WorkspaceFolder | undefined {
  const own = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  if (own) return own;
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeFolder = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  return activeFolder ?? vscode.workspace.workspaceFolders?.[0];
}

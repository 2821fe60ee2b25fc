// Opens a source location from a webview in the editor beside it.
import * as vscode from 'vscode';
import type { SourceTarget } from '../contracts/messages';

export async function openSource(target: SourceTarget): Promise<void> {
  const line = Math.max(0, target.line - 1);
  const column = Math.max(0, target.column ?? 0);
  const position = new vscode.Position(line, column);
  await vscode.window.showTextDocument(vscode.Uri.file(target.file), {
    viewColumn: vscode.ViewColumn.One,
    selection: new vscode.Range(position, position),
    preserveFocus: false,
  });
}

// The "MindScope" output channel: one log for the extension and the server it starts.
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function getLog(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('MindScope', { log: true });
  return channel;
}

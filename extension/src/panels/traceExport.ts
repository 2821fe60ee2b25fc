// Saves a profile's timeline as a Chrome trace file (Perfetto, chrome://tracing). The runtime
// writes it (`mindscope_runtime trace`, timeline.py): one exporter for the CLI and the panel.
import * as vscode from 'vscode';
import { reportFailure, runRuntime } from '../runtime/runner';

/** Asks where (unless `target` is given) and writes the trace of the profile document `file`. */
export async function exportChromeTrace(
  file: string,
  extensionPath: string,
  target?: vscode.Uri,
): Promise<vscode.Uri | undefined> {
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(file.replace(/\.profile\.json$|\.json$/, '.trace.json')),
      filters: { 'Chrome trace': ['json'] },
      title: 'Export Chrome trace (open it in Perfetto or chrome://tracing)',
    }));
  if (!uri) return undefined;
  try {
    await runRuntime({
      title: 'MindScope: exporting the Chrome trace',
      args: ['trace', file, '-o', uri.fsPath, '--quiet'],
      role: 'static', // reads a JSON document; imports no user code
      extensionPath,
      resource: vscode.Uri.file(file),
    });
  } catch (e) {
    await reportFailure('Exporting the Chrome trace', e);
    return undefined;
  }
  if (!target)
    void vscode.window.showInformationMessage(`MindScope: trace written to ${uri.fsPath}`);
  return uri;
}

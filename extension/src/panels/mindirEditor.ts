// Opens .mindir files as graphs: a read-only custom editor that runs the runtime's MindSpore-free
// MINDIR reader, then shows the graph view in the editor itself.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mindirArgs } from '../runtime/cli';
import { reportFailure, runRuntime } from '../runtime/runner';
import type { RunStore } from '../runtime/runs';
import { readGraphDocument } from './documents';
import { GraphWebview } from './graphWebview';

export const MINDIR_EDITOR = 'mindscope.mindirViewer';

export class MindirEditorProvider implements vscode.CustomReadonlyEditorProvider {
  private readonly views = new Set<GraphWebview>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runs: RunStore,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(
    document: vscode.CustomDocument,
    panel: vscode.WebviewPanel,
  ): Promise<void> {
    const file = document.uri.fsPath;
    const name = path.basename(file);
    const output = this.runs.outputFile('mindir', name);
    try {
      // Decoding a MINDIR file runs none of the user's code, so it works in untrusted folders:
      // a static child, never started in the file's folder.
      await runRuntime({
        title: `MindScope: reading ${name}`,
        args: mindirArgs(file, output),
        role: 'static',
        extensionPath: this.extensionUri.fsPath,
        resource: document.uri,
      });
      const doc = await readGraphDocument(output);
      await this.runs.add({ kind: 'mindir', target: name, file: output, at: Date.now() });
      const view = new GraphWebview(panel.webview, this.extensionUri, doc, `MINDIR: ${name}`);
      view.show(doc, `MINDIR: ${name}`);
      this.views.add(view);
      panel.onDidDispose(() => {
        view.dispose();
        this.views.delete(view);
      });
    } catch (e) {
      panel.webview.html = `<!DOCTYPE html><html><body><p>MindScope could not read this MINDIR file; see the notification and the MindScope log.</p></body></html>`;
      await reportFailure(`Reading ${name}`, e);
    }
  }

  /** How many .mindir editors are showing a graph: for tests. */
  get openCount(): number {
    return this.views.size;
  }
}

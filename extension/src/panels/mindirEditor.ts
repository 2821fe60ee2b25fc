// Opens .mindir and .onnx files as graphs: a read-only custom editor that runs the runtime's
// MindSpore-free MINDIR reader (or its ONNX reader, on the `onnx` package), then shows the
// graph view in the editor itself: a graph panel (DocumentPanel) on the webview VS Code gives it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mindirArgs, onnxArgs } from '../runtime/cli';
import { reportFailure, runRuntime } from '../runtime/runner';
import type { RunStore } from '../runtime/runs';
import { readGraphDocument } from './documents';
import { GraphPanel } from './graphPanel';

export const MINDIR_EDITOR = 'mindscope.mindirViewer';
export const ONNX_EDITOR = 'mindscope.onnxViewer';

/** What a model-file editor reads with: the runtime command and its label. */
export interface ModelFileReader {
  kind: 'mindir' | 'onnx';
  label: string;
  args(file: string, output: string): string[];
}

export const MINDIR_READER: ModelFileReader = { kind: 'mindir', label: 'MINDIR', args: mindirArgs };
export const ONNX_READER: ModelFileReader = { kind: 'onnx', label: 'ONNX', args: onnxArgs };

export class MindirEditorProvider implements vscode.CustomReadonlyEditorProvider {
  private readonly editors = new Set<GraphPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runs: RunStore,
    private readonly reader: ModelFileReader = MINDIR_READER,
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
    const { kind, label } = this.reader;
    const output = this.runs.outputFile(kind, name);
    try {
      // Decoding a model file runs none of the user's code, so it works in untrusted folders:
      // a static child, never started in the file's folder.
      await runRuntime({
        title: `MindScope: reading ${name}`,
        args: this.reader.args(file, output),
        role: 'static',
        extensionPath: this.extensionUri.fsPath,
        resource: document.uri,
      });
      const doc = await readGraphDocument(output);
      await this.runs.add({ kind, target: name, file: output, at: Date.now() });
      // The panel's identity is the model file; it sends the graph when its webview is ready.
      const editor = new GraphPanel(panel, this.extensionUri, doc, `${label}: ${name}`, file);
      this.editors.add(editor);
      editor.onClosed = () => this.editors.delete(editor);
    } catch (e) {
      panel.webview.html = `<!DOCTYPE html><html><body><p>MindScope could not read this ${label} file; see the notification and the MindScope log.</p></body></html>`;
      await reportFailure(`Reading ${name}`, e);
    }
  }

  /** How many editors of this kind are showing a graph: for tests. */
  get openCount(): number {
    return this.editors.size;
  }
}

// The graph panel: one webview panel per graph document file, restored after a reload.
import * as vscode from 'vscode';
import type { GraphDocument } from '../contracts/graphDocument';
import type { PanelState } from '../contracts/messages';
import { readGraphDocument } from './documents';
import { GraphWebview } from './graphWebview';

export const GRAPH_VIEW_TYPE = 'mindscope.graph';

export class GraphPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, GraphPanel>();
  private readonly disposables: { dispose(): unknown }[] = [];
  readonly view: GraphWebview;

  /** Shows `doc` (read from `file`) in its panel, creating the panel when needed. */
  static createOrShow(
    extensionUri: vscode.Uri,
    doc: GraphDocument,
    title: string,
    file: string,
  ): GraphPanel {
    const existing = GraphPanel.panels.get(file);
    if (existing) {
      existing.panel.reveal(undefined, true);
      existing.panel.title = title;
      existing.view.show(doc, title, { file, title });
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      GRAPH_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true },
    );
    return new GraphPanel(panel, extensionUri, doc, title, file);
  }

  static async revive(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    state: PanelState | undefined,
  ): Promise<void> {
    if (!state?.file) {
      panel.dispose();
      return;
    }
    try {
      const doc = await readGraphDocument(state.file);
      new GraphPanel(panel, extensionUri, doc, state.title ?? panel.title, state.file);
    } catch {
      panel.dispose();
    }
  }

  /** The panel showing the latest graph, for "reveal in graph" from the profiler. */
  static latest(): GraphPanel | undefined {
    return [...GraphPanel.panels.values()].pop();
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    doc: GraphDocument,
    title: string,
    readonly file: string,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'graph.svg');
    // The webview keeps only the file in its state (setState): revive rereads it.
    this.view = new GraphWebview(panel.webview, extensionUri, doc, title, { file, title });
    GraphPanel.panels.set(file, this);
    this.disposables.push(
      this.view,
      panel.onDidDispose(() => this.dispose()),
    );
  }

  dispose(): void {
    GraphPanel.panels.delete(this.file);
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

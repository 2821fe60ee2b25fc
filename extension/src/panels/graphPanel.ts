// The graph panel: one webview panel per graph document file, restored after a reload.
import * as vscode from 'vscode';
import type { GraphDocument } from '../contracts/graphDocument';
import { readGraphDocument } from './documents';
import { DocumentPanel, FilePanels } from './documentPanel';
import { GraphWebview } from './graphWebview';

export const GRAPH_VIEW_TYPE = 'mindscope.graph';

export class GraphPanel extends DocumentPanel<GraphDocument> {
  /** The graph view is shared with the .mindir editor: it wires the webview itself. */
  readonly view: GraphWebview;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    doc: GraphDocument,
    title: string,
    file: string,
  ) {
    super(panel, { extensionUri, icon: 'graph.svg', title }, doc, title, file);
    // The webview keeps only the file in its state (setState): revive rereads it.
    this.view = new GraphWebview(panel.webview, extensionUri, doc, title, this.panelState);
    this.disposables.push(this.view);
  }

  protected override postDocument(): void {
    this.view.show(this.doc, this.title, this.panelState);
  }
}

/** The open graph panels; `latest()` is where the profiler's "reveal in graph" goes. */
export const graphPanels = new FilePanels(
  GRAPH_VIEW_TYPE,
  readGraphDocument,
  (panel, extensionUri, doc, title, file) => new GraphPanel(panel, extensionUri, doc, title, file),
);

// Connects any webview (panel, custom editor) to the graph view bundle and one document.
import * as vscode from 'vscode';
import { documentMessages } from '../contracts/documentParts';
import type { GraphDocument } from '../contracts/graphDocument';
import type { FromGraphView, PanelState, ToGraphView } from '../contracts/messages';
import { getLog } from '../logging';
import { openSource } from './openSource';
import { setWebviewContent } from './webviewContent';

export interface RenderInfo {
  visibleNodes: number;
  layoutMs: number;
}

export class GraphWebview implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private pending: ToGraphView[] = [];
  lastRender: RenderInfo | undefined;

  constructor(
    private readonly webview: vscode.Webview,
    extensionUri: vscode.Uri,
    private doc: GraphDocument,
    private title: string,
    private state: PanelState = {},
  ) {
    setWebviewContent(webview, extensionUri, 'graph', title);
    this.disposables.push(webview.onDidReceiveMessage((m: FromGraphView) => this.receive(m)));
  }

  show(doc: GraphDocument, title: string, state: PanelState = {}): void {
    this.doc = doc;
    this.title = title;
    this.state = state;
    if (this.ready) this.sendDocument();
  }

  reveal(fullName: string): void {
    this.post({ type: 'reveal', fullName });
  }

  private post(message: ToGraphView): void {
    if (this.ready) void this.webview.postMessage(message);
    else this.pending.push(message);
  }

  private sendDocument(): void {
    for (const m of documentMessages(this.doc, this.title, this.state)) {
      void this.webview.postMessage(m);
    }
  }

  private receive(message: FromGraphView): void {
    switch (message.type) {
      case 'ready':
        // A (re)loaded webview starts empty: send the document, then what waited for it.
        this.ready = true;
        this.sendDocument();
        for (const m of this.pending) void this.webview.postMessage(m);
        this.pending = [];
        break;
      case 'openSource':
        openSource(message.target).catch((e: unknown) => {
          void vscode.window.showWarningMessage(
            `MindScope: cannot open ${message.target.file}: ${String(e)}`,
          );
        });
        break;
      case 'rendered':
        this.lastRender = { visibleNodes: message.visibleNodes, layoutMs: message.layoutMs };
        getLog().debug(
          `graph view: ${message.visibleNodes} items, layout ${message.layoutMs.toFixed(0)} ms`,
        );
        break;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

// The profiler panel: one webview panel per profile document, restored after a reload.
import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import type { FromProfileView, PanelState, ToProfileView } from '../contracts/messages';
import type { ProfileDocument } from '../contracts/profileDocument';
import { readProfileDocument } from './documents';
import { GraphPanel } from './graphPanel';
import { toChromeTrace } from './traceExport';
import { setWebviewContent } from './webviewContent';

export const PROFILE_VIEW_TYPE = 'mindscope.profile';

export class ProfilePanel implements vscode.Disposable {
  private static readonly panels = new Map<string, ProfilePanel>();
  private readonly disposables: vscode.Disposable[] = [];

  static createOrShow(
    extensionUri: vscode.Uri,
    doc: ProfileDocument,
    title: string,
    file: string,
  ): ProfilePanel {
    const existing = ProfilePanel.panels.get(file);
    if (existing) {
      existing.panel.reveal(undefined, true);
      existing.load(doc, title);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      PROFILE_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true },
    );
    return new ProfilePanel(panel, extensionUri, doc, title, file);
  }

  static async revive(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    state: PanelState | undefined,
  ): Promise<void> {
    try {
      if (!state?.file) throw new Error('no file');
      const doc = await readProfileDocument(state.file);
      new ProfilePanel(panel, extensionUri, doc, state.title ?? panel.title, state.file);
    } catch {
      panel.dispose();
    }
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private doc: ProfileDocument,
    private title: string,
    readonly file: string,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'profile.svg');
    setWebviewContent(panel.webview, extensionUri, 'profile', title);
    ProfilePanel.panels.set(file, this);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: FromProfileView) => this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  private load(doc: ProfileDocument, title: string): void {
    this.doc = doc;
    this.title = title;
    this.panel.title = title;
    const message: ToProfileView = { type: 'load', doc, title, state: { file: this.file, title } };
    void this.panel.webview.postMessage(message);
  }

  private receive(message: FromProfileView): void {
    switch (message.type) {
      case 'ready':
        this.load(this.doc, this.title);
        break;
      case 'exportTrace':
        void this.exportTrace();
        break;
      case 'revealOp':
        this.revealOp(message.fullName, message.scope);
        break;
    }
  }

  async exportTrace(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(this.file.replace(/\.profile\.json$|\.json$/, '.trace.json')),
        filters: { 'Chrome trace': ['json'] },
        title: 'Export Chrome trace (open it in Perfetto or chrome://tracing)',
      }));
    if (!uri) return undefined;
    await fs.writeFile(uri.fsPath, JSON.stringify(toChromeTrace(this.doc)));
    if (!target)
      void vscode.window.showInformationMessage(`MindScope: trace written to ${uri.fsPath}`);
    return uri;
  }

  /** Finds the op in the open graph panel; always offers its Cell's source through the graph. */
  private revealOp(fullName: string, scope: string): void {
    const graph = GraphPanel.latest();
    if (!graph) {
      void vscode.window.showInformationMessage(
        `MindScope: ${fullName || scope} — open the graph of this model (Show graph) to locate it.`,
      );
      return;
    }
    graph.panel.reveal(vscode.ViewColumn.Beside, true);
    if (fullName) graph.view.reveal(fullName);
  }

  static active(): ProfilePanel | undefined {
    return (
      [...ProfilePanel.panels.values()].find((p) => p.panel.active) ??
      [...ProfilePanel.panels.values()].pop()
    );
  }

  dispose(): void {
    ProfilePanel.panels.delete(this.file);
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

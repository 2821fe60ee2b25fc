// The MindScope side panel: a webview view next to the code with the actions for the Cell under
// the cursor, the latest profile at a glance and the recent runs of this workspace.
import * as vscode from 'vscode';
import { cellAt } from '../codelens/cellClasses';
import type { CellClassFinder } from '../codelens/cellFinder';
import type { CellUnderCursor, FromSidebar, ToSidebar } from '../contracts/sidebar';
import type { RunStore } from '../runtime/runs';
import type { WorkspaceTrainingRuns } from '../summary/workspaceRuns';
import { readProfileDocument } from './documents';
import { makeNonce, webviewHtml } from './html';
import { summarizeProfile } from './profileSummary';

export const SIDEBAR_VIEW = 'mindscope.sidebar';

export class SidebarProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private cell: CellUnderCursor | null = null;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runs: RunStore,
    private readonly cells: CellClassFinder,
    private readonly training?: WorkspaceTrainingRuns,
  ) {
    this.disposables.push(
      runs.onDidChange(() => void this.update()),
      ...(training ? [training.onDidChange(() => void this.update())] : []),
      vscode.window.onDidChangeTextEditorSelection(() => this.cursorMoved()),
      vscode.window.onDidChangeActiveTextEditor(() => this.cursorMoved()),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    const asset = (f: string): string =>
      view.webview.asWebviewUri(vscode.Uri.joinPath(dist, f)).toString();
    view.webview.html = webviewHtml({
      title: 'MindScope',
      cspSource: view.webview.cspSource,
      scriptUri: asset('sidebar.js'),
      styleUris: [asset('sidebar.css')],
      nonce: makeNonce(),
    });
    this.disposables.push(view.webview.onDidReceiveMessage((m: FromSidebar) => this.receive(m)));
    view.onDidChangeVisibility(() => void this.update());
    this.cursorMoved();
    void this.training?.refresh();
  }

  private cursorMoved(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.findCell(), 250);
  }

  private async findCell(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const next =
      editor?.document.languageId === 'python'
        ? cellAt(await this.cells.find(editor.document), editor.selection.active.line)
        : undefined;
    const cell = next && editor ? { name: next.name, file: editor.document.uri.fsPath } : null;
    if (cell?.name !== this.cell?.name || cell?.file !== this.cell?.file) {
      this.cell = cell;
      void this.update();
    }
  }

  private async update(): Promise<void> {
    if (!this.view?.visible) return;
    const runs = this.runs.list();
    const latest = runs.find((r) => r.kind === 'profile');
    const profile = latest
      ? await readProfileDocument(latest.file).then(summarizeProfile, () => null)
      : null;
    const message: ToSidebar = {
      type: 'update',
      runs,
      cell: this.cell,
      profile,
      trusted: vscode.workspace.isTrusted,
      training: this.training?.current,
    };
    void this.view.webview.postMessage(message);
  }

  private receive(m: FromSidebar): void {
    switch (m.type) {
      case 'ready':
        void this.update();
        break;
      case 'openRun':
        void vscode.commands.executeCommand(
          m.kind === 'profile' ? 'mindscope.openProfileDocument' : 'mindscope.openGraphDocument',
          m.file,
        );
        break;
      case 'openTraining':
        void vscode.commands.executeCommand('mindscope.openSummary', {
          root: m.root,
          runs: m.runs,
        });
        break;
      case 'cellAction':
        if (this.cell) {
          void vscode.commands.executeCommand(m.command, {
            uri: vscode.Uri.file(this.cell.file),
            className: this.cell.name,
          });
        }
        break;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

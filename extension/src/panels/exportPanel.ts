// The export report panel: one webview panel per report, restored after a reload.
import * as vscode from 'vscode';
import type {
  ArtefactAction,
  ExportReport,
  FromExportView,
  ToExportView,
} from '../contracts/exportReport';
import type { PanelState } from '../contracts/messages';
import { readExportReport } from './documents';
import { MINDIR_EDITOR, ONNX_EDITOR } from './mindirEditor';
import { setWebviewContent } from './webviewContent';

export const EXPORT_VIEW_TYPE = 'mindscope.export';

export class ExportPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, ExportPanel>();
  private readonly disposables: vscode.Disposable[] = [];

  static createOrShow(
    extensionUri: vscode.Uri,
    doc: ExportReport,
    title: string,
    file: string,
  ): ExportPanel {
    const existing = ExportPanel.panels.get(file);
    if (existing) {
      existing.panel.reveal(undefined, true);
      existing.load(doc, title);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      EXPORT_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true },
    );
    return new ExportPanel(panel, extensionUri, doc, title, file);
  }

  static async revive(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    state: PanelState | undefined,
  ): Promise<void> {
    try {
      if (!state?.file) throw new Error('no file');
      const doc = await readExportReport(state.file);
      new ExportPanel(panel, extensionUri, doc, state.title ?? panel.title, state.file);
    } catch {
      panel.dispose();
    }
  }

  /** The panel showing `file`, or the latest one: for tests. */
  static find(file?: string): ExportPanel | undefined {
    return file ? ExportPanel.panels.get(file) : [...ExportPanel.panels.values()].pop();
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private doc: ExportReport,
    private title: string,
    readonly file: string,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'profile.svg');
    setWebviewContent(panel.webview, extensionUri, 'export', title);
    ExportPanel.panels.set(file, this);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: FromExportView) => this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  get report(): ExportReport {
    return this.doc;
  }

  private load(doc: ExportReport, title: string): void {
    this.doc = doc;
    this.title = title;
    this.panel.title = title;
    const message: ToExportView = { type: 'load', doc, title, state: { file: this.file, title } };
    void this.panel.webview.postMessage(message);
  }

  private receive(message: FromExportView): void {
    if (message.type === 'ready') {
      this.load(this.doc, this.title);
      return;
    }
    const artefact = this.doc.artefacts[message.artefact];
    if (artefact) void artefactAction(message.type, artefact.file, artefact.snippet);
  }

  dispose(): void {
    ExportPanel.panels.delete(this.file);
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

/** Reveal an artefact, open it in the graph view (its custom editor) or open its snippet:
 * from the panel and from a notebook's export output alike. */
export async function artefactAction(
  action: ArtefactAction,
  file: string,
  snippet?: string | null,
): Promise<void> {
  const uri = vscode.Uri.file(file);
  if (action === 'reveal') {
    await vscode.commands.executeCommand('revealInExplorer', uri);
  } else if (action === 'openGraph') {
    const editor = file.endsWith('.onnx') ? ONNX_EDITOR : MINDIR_EDITOR;
    await vscode.commands.executeCommand('vscode.openWith', uri, editor);
  } else if (snippet) {
    await vscode.window.showTextDocument(vscode.Uri.file(snippet));
  }
}

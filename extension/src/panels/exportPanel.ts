// The export report panel: one webview panel per report, restored after a reload.
import * as vscode from 'vscode';
import type { ArtefactAction, ExportReport, FromExportView } from '../contracts/exportReport';
import { readExportReport } from './documents';
import { DocumentPanel, FilePanels } from './documentPanel';
import { MINDIR_EDITOR, ONNX_EDITOR } from './mindirEditor';

export const EXPORT_VIEW_TYPE = 'mindscope.export';

export class ExportPanel extends DocumentPanel<ExportReport> {
  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    doc: ExportReport,
    title: string,
    file: string,
  ) {
    super(panel, { extensionUri, icon: 'profile.svg', bundle: 'export', title }, doc, title, file);
  }

  get report(): ExportReport {
    return this.doc;
  }

  protected override receive(message: FromExportView): void {
    if (message.type === 'ready') return; // the base class answers it
    const artefact = this.doc.artefacts[message.artefact];
    if (artefact) void artefactAction(message.type, artefact.file, artefact.snippet);
  }
}

export const exportPanels = new FilePanels(
  EXPORT_VIEW_TYPE,
  readExportReport,
  (panel, extensionUri, doc, title, file) => new ExportPanel(panel, extensionUri, doc, title, file),
);

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

// The profiler panel: one webview panel per profile document, restored after a reload.
import * as vscode from 'vscode';
import type { FromProfileView } from '../contracts/messages';
import type { ProfileDocument } from '../contracts/profileDocument';
import { readProfileDocument } from './documents';
import { DocumentPanel, FilePanels } from './documentPanel';
import { graphPanels } from './graphPanel';
import { exportChromeTrace } from './traceExport';

export const PROFILE_VIEW_TYPE = 'mindscope.profile';

export class ProfilePanel extends DocumentPanel<ProfileDocument> {
  constructor(
    panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    doc: ProfileDocument,
    title: string,
    file: string,
  ) {
    super(panel, { extensionUri, icon: 'profile.svg', bundle: 'profile', title }, doc, title, file);
  }

  protected override receive(message: FromProfileView): void {
    if (message.type === 'exportTrace') void this.exportTrace();
    else if (message.type === 'revealOp') this.revealOp(message.fullName, message.scope);
  }

  /** Saves the profile's timeline as a Chrome trace, asking where unless `target` is given. */
  exportTrace(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    return exportChromeTrace(this.file, this.extensionUri.fsPath, target);
  }

  /** Finds the op in the open graph panel; always offers its Cell's source through the graph. */
  private revealOp(fullName: string, scope: string): void {
    const graph = graphPanels.latest();
    if (!graph) {
      void vscode.window.showInformationMessage(
        `MindScope: ${fullName || scope} — open the graph of this model (Show graph) to locate it.`,
      );
      return;
    }
    graph.panel.reveal(vscode.ViewColumn.Beside, true);
    if (fullName) graph.view.reveal(fullName);
  }
}

export const profilePanels = new FilePanels(
  PROFILE_VIEW_TYPE,
  readProfileDocument,
  (panel, extensionUri, doc, title, file) =>
    new ProfilePanel(panel, extensionUri, doc, title, file),
);

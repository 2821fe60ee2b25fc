// Registers MindScope's panels: the document panels and their revival after a reload, the
// .mindir/.onnx editors, the side panel, notebook-output messages and the commands that open
// a document.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CellClassFinder } from '../codelens/cellFinder';
import type { RunStore } from '../runtime/runs';
import { openSummary } from '../summary/commands';
import { WorkspaceTrainingRuns } from '../summary/workspaceRuns';
import { readGraphDocument, readProfileDocument } from './documents';
import { exportPanels } from './exportPanel';
import { graphPanels } from './graphPanel';
import { MINDIR_EDITOR, MindirEditorProvider, ONNX_EDITOR, ONNX_READER } from './mindirEditor';
import { profilePanels } from './profilePanel';
import { rendererMessaging } from './rendererMessaging';
import { SIDEBAR_VIEW, SidebarProvider } from './sidebar';
import { SummaryPanel } from './summaryPanel';

async function pickFile(arg: unknown, label: string): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return arg.fsPath;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { 'MindScope document': ['json'] },
    openLabel: label,
  });
  return picked?.[0]?.fsPath;
}

export function registerPanels(
  context: vscode.ExtensionContext,
  runs: RunStore,
  cells: CellClassFinder,
): void {
  const extensionUri = context.extensionUri;
  const training = new WorkspaceTrainingRuns(context.extensionPath);
  const sidebar = new SidebarProvider(extensionUri, runs, cells, training);
  const command = (id: string, run: (arg: unknown) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, run);
  const editor = (id: string, provider: MindirEditorProvider): vscode.Disposable =>
    vscode.window.registerCustomEditorProvider(id, provider, {
      supportsMultipleEditorsPerDocument: true,
    });
  context.subscriptions.push(
    rendererMessaging(),
    training,
    sidebar,
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW, sidebar),
    graphPanels.register(extensionUri),
    profilePanels.register(extensionUri),
    exportPanels.register(extensionUri),
    SummaryPanel.register(context),
    editor(MINDIR_EDITOR, new MindirEditorProvider(extensionUri, runs)),
    editor(ONNX_EDITOR, new MindirEditorProvider(extensionUri, runs, ONNX_READER)),
    command('mindscope.openSummary', (arg) => openSummary(context, arg)),
    command('mindscope.openGraphDocument', async (arg) => {
      const file = await pickFile(arg, 'Show graph');
      if (!file) return;
      const doc = await readGraphDocument(file);
      graphPanels.createOrShow(extensionUri, doc, `Graph: ${path.basename(file)}`, file);
    }),
    command('mindscope.openProfileDocument', async (arg) => {
      const file = await pickFile(arg, 'Show profile');
      if (!file) return;
      const doc = await readProfileDocument(file);
      profilePanels.createOrShow(extensionUri, doc, `Profile: ${path.basename(file)}`, file);
    }),
    command('mindscope.exportChromeTrace', async (arg) => {
      const panel = profilePanels.active();
      if (!panel) {
        void vscode.window.showInformationMessage('MindScope: open a profile first.');
        return undefined;
      }
      return panel.exportTrace(arg instanceof vscode.Uri ? arg : undefined);
    }),
  );
}

// Registers MindScope's panels, CodeLens, commands and the `mindscope` debug type.
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as cell from '../codelens/commands';
import { profileDistributed } from '../codelens/distCommand';
import { exportCell, setExportOptions } from '../codelens/exportCommand';
import { ExportOptionsChooser } from '../codelens/exportOptions';
import { InputChooser } from '../codelens/inputs';
import { CellCodeLensProvider } from '../codelens/provider';
import { isArtefactAction } from '../contracts/exportReport';
import type { PanelState } from '../contracts/messages';
import { DEBUG_TYPE } from '../debug/config';
import { PyNativeDebugProvider } from '../debug/provider';
import { RunStore } from '../runtime/runs';
import { readGraphDocument, readProfileDocument } from './documents';
import { GRAPH_VIEW_TYPE, GraphPanel } from './graphPanel';
import { artefactAction, EXPORT_VIEW_TYPE, ExportPanel } from './exportPanel';
import { MINDIR_EDITOR, MindirEditorProvider, ONNX_EDITOR, ONNX_READER } from './mindirEditor';
import { openSource } from './openSource';
import { SIDEBAR_VIEW, SidebarProvider } from './sidebar';
import { PROFILE_VIEW_TYPE, ProfilePanel } from './profilePanel';
import { SUMMARY_VIEW_TYPE, SummaryPanel } from './summaryPanel';
import { openSummary } from '../summary/commands';
import { WorkspaceTrainingRuns } from '../summary/workspaceRuns';

export const RENDERER_ID = 'mindscope.renderer';

/** Source links and export artefact buttons clicked in a notebook output (webview/renderer). */
function rendererMessaging(): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return messaging.onDidReceiveMessage(({ message }: { message: unknown }) => {
    const m = message as { type?: unknown; target?: { file?: unknown; line?: unknown } };
    if (m.type === 'openSource' && typeof m.target?.file === 'string') {
      const line = typeof m.target.line === 'number' ? m.target.line : 1;
      void openSource({ file: m.target.file, line });
    }
    const a = message as { type?: unknown; action?: unknown; file?: unknown; snippet?: unknown };
    if (a.type === 'artefact' && typeof a.file === 'string' && isArtefactAction(a.action)) {
      void artefactAction(a.action, a.file, typeof a.snippet === 'string' ? a.snippet : null);
    }
  });
}

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

export function registerPanels(context: vscode.ExtensionContext): RunStore {
  const extensionUri = context.extensionUri;
  const runs = new RunStore(context);
  const deps = {
    extensionUri,
    inputs: new InputChooser(context.workspaceState),
    runs,
    exportOptions: new ExportOptionsChooser(context.workspaceState),
  };
  const codeLens = new CellCodeLensProvider();
  const training = new WorkspaceTrainingRuns(context.extensionPath);
  const sidebar = new SidebarProvider(extensionUri, runs, training);
  const debug = new PyNativeDebugProvider(context.extensionPath);
  const revive = (
    reviver: typeof GraphPanel.revive,
  ): vscode.WebviewPanelSerializer<PanelState> => ({
    deserializeWebviewPanel: (panel, state) => reviver(panel, extensionUri, state),
  });
  const command = (id: string, run: (arg: unknown) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, run);
  context.subscriptions.push(
    runs,
    codeLens,
    rendererMessaging(),
    training,
    sidebar,
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW, sidebar),
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, codeLens),
    vscode.window.registerWebviewPanelSerializer(
      GRAPH_VIEW_TYPE,
      revive((p, u, s) => GraphPanel.revive(p, u, s)),
    ),
    vscode.window.registerWebviewPanelSerializer(
      PROFILE_VIEW_TYPE,
      revive((p, u, s) => ProfilePanel.revive(p, u, s)),
    ),
    vscode.window.registerWebviewPanelSerializer(SUMMARY_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: PanelState) =>
        SummaryPanel.revive(panel, context, state),
    }),
    command('mindscope.openSummary', (arg) => openSummary(context, arg)),
    vscode.window.registerCustomEditorProvider(
      MINDIR_EDITOR,
      new MindirEditorProvider(extensionUri, runs),
      { supportsMultipleEditorsPerDocument: true },
    ),
    vscode.window.registerCustomEditorProvider(
      ONNX_EDITOR,
      new MindirEditorProvider(extensionUri, runs, ONNX_READER),
      { supportsMultipleEditorsPerDocument: true },
    ),
    vscode.window.registerWebviewPanelSerializer(
      EXPORT_VIEW_TYPE,
      revive((p, u, s) => ExportPanel.revive(p, u, s)),
    ),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, debug),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, debug),
    command('mindscope.showGraph', (arg) => cell.showGraph(deps, arg)),
    command('mindscope.profile', (arg) => cell.profile(deps, arg)),
    command('mindscope.profileDistributed', (arg) => profileDistributed(deps, arg)),
    command('mindscope.debugPyNative', (arg) => cell.debugPyNative(deps, arg)),
    command('mindscope.setInputShapes', (arg) => cell.setInputs(deps, arg)),
    command('mindscope.export', (arg) => exportCell(deps, arg)),
    command('mindscope.setExportOptions', (arg) => setExportOptions(deps, arg)),
    command('mindscope.openGraphDocument', async (arg) => {
      const file = await pickFile(arg, 'Show graph');
      if (!file) return;
      const doc = await readGraphDocument(file);
      GraphPanel.createOrShow(extensionUri, doc, `Graph: ${path.basename(file)}`, file);
    }),
    command('mindscope.openProfileDocument', async (arg) => {
      const file = await pickFile(arg, 'Show profile');
      if (!file) return;
      const doc = await readProfileDocument(file);
      ProfilePanel.createOrShow(extensionUri, doc, `Profile: ${path.basename(file)}`, file);
    }),
    command('mindscope.exportChromeTrace', async (arg) => {
      const panel = ProfilePanel.active();
      if (!panel) {
        void vscode.window.showInformationMessage('MindScope: open a profile first.');
        return undefined;
      }
      return panel.exportTrace(arg instanceof vscode.Uri ? arg : undefined);
    }),
  );
  return runs;
}

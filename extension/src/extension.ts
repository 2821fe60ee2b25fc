// Entry point: only wires the pieces together.
import * as vscode from 'vscode';
import { registerCodeLens } from './codelens/activate';
import { CellClassFinder } from './codelens/cellFinder';
import { registerDebugging } from './debug/activate';
import { getLog } from './logging';
import { activateNotebooks } from './notebook/activate';
import { registerNotebookDebugging } from './notebook/debug/debugCell';
import type { MindScopeNotebooks } from './notebook/controller';
import { ModeStatus, type ModeStatusSnapshot } from './fileMode/modeStatus';
import { registerPanels } from './panels/activate';
import { onPythonInterpreterChanged } from './python/interpreter';
import { RunStore } from './runtime/runs';
import { ServerManager } from './server/client';
import { affectsServer, readSettings } from './settings';
import { ServerState, ServerStatusItem } from './server/statusItem';

/** What the extension exposes to other extensions and to its own end-to-end tests. */
export interface MindScopeApi {
  readonly serverState: ServerState;
  /** The execution-mode status item as shown (for the end-to-end tests). */
  readonly fileModeStatus: ModeStatusSnapshot;
  whenServerSettled(): Promise<ServerState>;
  /** MindScope's notebook controller and its kernels (the cell debugger's seam, and the tests'). */
  readonly notebooks: MindScopeNotebooks;
}

let notebooks: MindScopeNotebooks | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<MindScopeApi> {
  const log = getLog();
  const status = new ServerStatusItem();
  const server = new ServerManager(context.extensionPath, status);
  context.subscriptions.push(log, status, server);

  context.subscriptions.push(
    vscode.commands.registerCommand('mindscope.restartServer', () => server.restart()),
    vscode.commands.registerCommand('mindscope.showLogs', () => log.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsServer(e)) void server.restart();
      else if (e.affectsConfiguration('mindscope.graphMode')) void server.sendGraphModeSettings();
    }),
    // Trusting a folder may change which interpreter setting applies.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.restart()),
  );
  const pythonListener = await onPythonInterpreterChanged(() => {
    if (!readSettings().python) void server.restart();
  });
  if (pythonListener) context.subscriptions.push(pythonListener);

  // Graphs and profiles made from the CodeLens are listed by the side panel.
  const runs = new RunStore(context);
  const cells = new CellClassFinder(server);
  context.subscriptions.push(runs, cells);
  registerPanels(context, runs, cells);
  registerCodeLens(context, runs, cells);
  registerDebugging(context);
  notebooks = activateNotebooks(context);
  context.subscriptions.push(registerNotebookDebugging(notebooks));
  const modeStatus = new ModeStatus(context.extensionPath, server);
  context.subscriptions.push(modeStatus);

  const started = server.restart();
  return {
    get serverState() {
      return server.state;
    },
    get fileModeStatus() {
      return modeStatus.snapshot;
    },
    notebooks,
    whenServerSettled: async () => {
      await started;
      return server.state;
    },
  };
}

export async function deactivate(): Promise<void> {
  // Disposables in context.subscriptions stop the server; kernels get a clean shutdown first.
  await notebooks?.shutdownAll();
}

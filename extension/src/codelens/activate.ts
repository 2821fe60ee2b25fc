// Registers the Cell CodeLens and the commands it (and the palette, and the side panel) runs.
import * as vscode from 'vscode';
import type { RunStore } from '../runtime/runs';
import type { CellClassFinder } from './cellFinder';
import * as cell from './commands';
import { profileDistributed } from './distCommand';
import { exportCell, setExportOptions } from './exportCommand';
import { ExportOptionsChooser } from './exportOptions';
import { InputChooser } from './inputs';
import { CellCodeLensProvider } from './provider';

export function registerCodeLens(
  context: vscode.ExtensionContext,
  runs: RunStore,
  cells: CellClassFinder,
): void {
  const deps = {
    extensionUri: context.extensionUri,
    inputs: new InputChooser(context.workspaceState),
    runs,
    cells,
    exportOptions: new ExportOptionsChooser(context.workspaceState),
  };
  const codeLens = new CellCodeLensProvider(cells);
  const command = (id: string, run: (arg: unknown) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, run);
  context.subscriptions.push(
    codeLens,
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, codeLens),
    command('mindscope.showGraph', (arg) => cell.showGraph(deps, arg)),
    command('mindscope.profile', (arg) => cell.profile(deps, arg)),
    command('mindscope.profileDistributed', (arg) => profileDistributed(deps, arg)),
    command('mindscope.debugPyNative', (arg) => cell.debugPyNative(deps, arg)),
    command('mindscope.setInputShapes', (arg) => cell.setInputs(deps, arg)),
    command('mindscope.export', (arg) => exportCell(deps, arg)),
    command('mindscope.setExportOptions', (arg) => setExportOptions(deps, arg)),
  );
}

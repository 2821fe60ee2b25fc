// "Export…": export the Cell (MINDIR / ONNX, int8), verify it, show the export report and reveal
// the artefacts in the explorer.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readExportReport } from '../panels/documents';
import { exportPanels, type ExportPanel } from '../panels/exportPanel';
import { targetArgs } from '../runtime/cli';
import { reportFailure, runRuntime } from '../runtime/runner';
import { prepare, targetFrom, type CellCommandDeps } from './commands';
import { exportFlags, isExportOptions } from './exportFlags';
import type { ExportOptionsChooser } from './exportOptions';

export interface ExportDeps extends CellCommandDeps {
  exportOptions: ExportOptionsChooser;
}

/** Artefacts go next to the model, where the explorer shows them. */
export function exportFolder(file: string, className: string): string {
  return path.join(path.dirname(file), 'mindscope-export', className);
}

export async function exportCell(deps: ExportDeps, arg: unknown): Promise<ExportPanel | undefined> {
  const ready = await prepare(deps, arg, 'Export');
  if (!ready) return undefined;
  const { target, inputs } = ready;
  const file = target.uri.fsPath;
  const options = await deps.exportOptions.choose(file, target.className);
  if (!options) return undefined;
  const output = exportFolder(file, target.className);
  try {
    const status = await runRuntime({
      title: `MindScope: exporting ${target.className}`,
      args: targetArgs({
        command: 'export',
        file,
        name: target.className,
        inputs,
        output,
        extra: exportFlags(options),
      }),
      role: 'user-code',
      cwd: path.dirname(file),
      extensionPath: deps.extensionUri.fsPath,
      resource: target.uri,
    });
    const report = status.output ?? path.join(output, 'export-report.json');
    const doc = await readExportReport(report);
    const panel = exportPanels.createOrShow(
      deps.extensionUri,
      doc,
      `Export: ${target.className}`,
      report,
    );
    const first = doc.artefacts[0];
    if (first) void vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(first.file));
    return panel;
  } catch (e) {
    await reportFailure(`Export of ${target.className}`, e);
    return undefined;
  }
}

/** Asks the format and quantization again; `{uri, className, options}` sets them directly. */
export async function setExportOptions(deps: ExportDeps, arg: unknown): Promise<void> {
  const target = await targetFrom(deps.cells, arg);
  if (!target) return;
  const given =
    typeof arg === 'object' && arg !== null ? (arg as { options?: unknown }).options : undefined;
  if (isExportOptions(given)) {
    await deps.exportOptions.remember(target.uri.fsPath, target.className, given);
    return;
  }
  await deps.exportOptions.ask(target.uri.fsPath, target.className);
}

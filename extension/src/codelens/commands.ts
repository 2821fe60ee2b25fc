// Show graph · Profile · Debug in PyNative, from a CodeLens or the palette.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readGraphDocument, readProfileDocument } from '../panels/documents';
import { graphPanels } from '../panels/graphPanel';
import { profilePanels } from '../panels/profilePanel';
import { pynativeConfig } from '../debug/config';
import { targetArgs, type InputSource, type TargetCommand } from '../runtime/cli';
import { reportFailure, runRuntime, RuntimeFailure } from '../runtime/runner';
import type { RunStore } from '../runtime/runs';
import { folderFor } from '../workspaceFolder';
import { cellAt } from './cellClasses';
import type { CellClassFinder } from './cellFinder';
import type { InputChooser } from './inputs';
import type { CellTarget } from './provider';

export interface CellCommandDeps {
  extensionUri: vscode.Uri;
  inputs: InputChooser;
  runs: RunStore;
  cells: CellClassFinder;
}

export function requireTrust(what: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(
    `MindScope: ${what} runs your code; it is disabled until you trust this workspace.`,
  );
  return false;
}

/** The Cell named by a CodeLens, else the one around the cursor. */
export async function targetFrom(
  cells: CellClassFinder,
  arg: unknown,
): Promise<CellTarget | undefined> {
  if (isCellTarget(arg)) return arg;
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') return undefined;
  const cell = cellAt(await cells.find(editor.document), editor.selection.active.line);
  return cell ? { uri: editor.document.uri, className: cell.name } : undefined;
}

function isCellTarget(arg: unknown): arg is CellTarget {
  return (
    typeof arg === 'object' &&
    arg !== null &&
    'uri' in arg &&
    arg.uri instanceof vscode.Uri &&
    'className' in arg &&
    typeof arg.className === 'string'
  );
}

export async function prepare(
  deps: CellCommandDeps,
  arg: unknown,
  what: string,
): Promise<{ target: CellTarget; inputs: InputSource } | undefined> {
  if (!requireTrust(what)) return undefined;
  const target = await targetFrom(deps.cells, arg);
  if (!target) {
    void vscode.window.showInformationMessage('MindScope: put the cursor in an nn.Cell subclass.');
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(target.uri);
  if (document.isDirty) await document.save();
  const inputs = await deps.inputs.choose(document, target.className);
  return inputs ? { target, inputs } : undefined;
}

async function runTarget(
  deps: CellCommandDeps,
  command: TargetCommand,
  target: CellTarget,
  inputs: InputSource,
  title: string,
): Promise<string> {
  const output = deps.runs.outputFile(command, target.className);
  const file = target.uri.fsPath;
  try {
    const status = await runRuntime({
      title,
      args: targetArgs({ command, file, name: target.className, inputs, output }),
      role: 'user-code',
      cwd: path.dirname(file),
      extensionPath: deps.extensionUri.fsPath,
      resource: target.uri,
    });
    await deps.runs.add({
      kind: command,
      target: `${path.basename(file)}:${target.className}`,
      file: output,
      at: Date.now(),
      summary: status.summary,
    });
  } catch (e) {
    // A failed compile still writes a Cell-level graph with the error: show it too.
    const kind = e instanceof RuntimeFailure ? e.status?.error?.kind : undefined;
    if (command === 'graph' && kind === 'compile-failed') {
      void reportFailure(`compiling ${target.className}`, e);
      return output;
    }
    throw e;
  }
  return output;
}

export async function showGraph(deps: CellCommandDeps, arg: unknown): Promise<void> {
  const ready = await prepare(deps, arg, 'Show graph');
  if (!ready) return;
  const { target, inputs } = ready;
  try {
    const output = await runTarget(
      deps,
      'graph',
      target,
      inputs,
      `MindScope: compiling ${target.className}`,
    );
    const doc = await readGraphDocument(output);
    graphPanels.createOrShow(deps.extensionUri, doc, `Graph: ${target.className}`, output);
  } catch (e) {
    await reportFailure(`Show graph of ${target.className}`, e);
  }
}

export async function profile(deps: CellCommandDeps, arg: unknown): Promise<void> {
  const ready = await prepare(deps, arg, 'Profile');
  if (!ready) return;
  const { target, inputs } = ready;
  try {
    const output = await runTarget(
      deps,
      'profile',
      target,
      inputs,
      `MindScope: profiling ${target.className}`,
    );
    const doc = await readProfileDocument(output);
    profilePanels.createOrShow(deps.extensionUri, doc, `Profile: ${target.className}`, output);
  } catch (e) {
    await reportFailure(`Profile of ${target.className}`, e);
  }
}

/** A CodeLens debugs one forward call of its Cell; a file (palette, explorer) runs as a script. */
export async function debugPyNative(deps: CellCommandDeps, arg: unknown): Promise<boolean> {
  if (!requireTrust('Debug in PyNative')) return false;
  if (isCellTarget(arg)) {
    const document = await vscode.workspace.openTextDocument(arg.uri);
    const inputs = await deps.inputs.choose(document, arg.className);
    if (!inputs) return false;
    const cell = `${arg.uri.fsPath}:${arg.className}`;
    const config =
      inputs.kind === 'shapes'
        ? pynativeConfig({ cell, input: inputs.specs })
        : pynativeConfig({ cell, inputsFrom: `${inputs.file}:${inputs.name}` });
    return vscode.debug.startDebugging(folderFor(arg.uri), config);
  }
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri?.fsPath.endsWith('.py')) {
    void vscode.window.showInformationMessage('MindScope: open the Python script to debug.');
    return false;
  }
  return vscode.debug.startDebugging(folderFor(uri), pynativeConfig({ program: uri.fsPath }));
}

export async function setInputs(deps: CellCommandDeps, arg: unknown): Promise<void> {
  const target = await targetFrom(deps.cells, arg);
  if (!target) return;
  await deps.inputs.ask(target.uri.fsPath, target.className);
}

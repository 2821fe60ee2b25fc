// "Profile distributed": run a data-parallel script under msrun with every rank profiled
// (`python -m mindscope_runtime profile-dist`), then open the merged profile.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readProfileDocument } from '../panels/documents';
import { profilePanels } from '../panels/profilePanel';
import { distArgs } from '../runtime/cli';
import { reportFailure, runRuntime } from '../runtime/runner';
import type { RunStore } from '../runtime/runs';
import { requireTrust } from './commands';

export interface DistTarget {
  uri: vscode.Uri;
  /** Ranks; asked for when missing. */
  workers?: number;
  /** The script's own arguments; asked for when missing. */
  scriptArgs?: string[];
}

export interface DistDeps {
  extensionUri: vscode.Uri;
  runs: RunStore;
}

function targetOf(arg: unknown): DistTarget | undefined {
  if (arg instanceof vscode.Uri) return { uri: arg };
  if (typeof arg === 'object' && arg !== null && 'uri' in arg && arg.uri instanceof vscode.Uri) {
    return arg as DistTarget;
  }
  const editor = vscode.window.activeTextEditor;
  return editor?.document.languageId === 'python' ? { uri: editor.document.uri } : undefined;
}

async function askWorkers(): Promise<number | undefined> {
  const picked = await vscode.window.showQuickPick(['2', '4', '8'], {
    title: 'MindScope: Profile distributed',
    placeHolder: 'How many ranks (msrun workers) on this machine?',
  });
  return picked ? Number(picked) : undefined;
}

async function askArgs(file: string): Promise<string[] | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'MindScope: Profile distributed',
    prompt: `Arguments for ${path.basename(file)} (optional)`,
    placeHolder: 'e.g. --steps 4 --batch-size 8',
  });
  return text === undefined ? undefined : text.split(/\s+/).filter(Boolean);
}

export async function profileDistributed(deps: DistDeps, arg: unknown): Promise<void> {
  if (!requireTrust('Profile distributed')) return;
  const target = targetOf(arg);
  if (!target?.uri.fsPath.endsWith('.py')) {
    void vscode.window.showInformationMessage('MindScope: open the training script to profile.');
    return;
  }
  const document = await vscode.workspace.openTextDocument(target.uri);
  if (document.isDirty) await document.save();
  const file = target.uri.fsPath;
  const workers = target.workers ?? (await askWorkers());
  if (!workers) return;
  const scriptArgs = target.scriptArgs ?? (await askArgs(file));
  if (!scriptArgs) return;
  const name = path.basename(file, '.py');
  const output = deps.runs.outputFile('profile', `${name}-dist`);
  try {
    const status = await runRuntime({
      title: `MindScope: profiling ${path.basename(file)} on ${workers} ranks`,
      args: distArgs({ file, workers, output, scriptArgs }),
      role: 'user-code',
      cwd: path.dirname(file),
      extensionPath: deps.extensionUri.fsPath,
      resource: target.uri,
    });
    await deps.runs.add({
      kind: 'profile',
      target: `${path.basename(file)} (${workers} ranks)`,
      file: output,
      at: Date.now(),
      summary: status.summary,
    });
    const doc = await readProfileDocument(output);
    const title = `Profile: ${path.basename(file)} (${workers} ranks)`;
    profilePanels.createOrShow(deps.extensionUri, doc, title, output);
  } catch (e) {
    await reportFailure(`Profile distributed of ${path.basename(file)}`, e);
  }
}

// `MindScope: Open Training Dashboard`: a summary folder (argument, side panel or folder picker).
import * as vscode from 'vscode';
import { SummaryPanel } from '../panels/summaryPanel';

export interface OpenSummaryArg {
  root: string;
  runs?: string[];
}

export async function openSummary(
  context: vscode.ExtensionContext,
  arg: unknown,
): Promise<SummaryPanel | undefined> {
  let root: string | undefined;
  let runs: string[] | undefined;
  if (typeof arg === 'string') root = arg;
  else if (arg instanceof vscode.Uri) root = arg.fsPath;
  else if (
    typeof arg === 'object' &&
    arg !== null &&
    typeof (arg as OpenSummaryArg).root === 'string'
  ) {
    ({ root, runs } = arg as OpenSummaryArg);
  } else {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      openLabel: 'Open training dashboard',
      title: 'A folder of MindSpore summary runs (SummaryRecord / SummaryCollector)',
    });
    root = picked?.[0]?.fsPath;
  }
  return root ? SummaryPanel.createOrShow(context, root, runs) : undefined;
}

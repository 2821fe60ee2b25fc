// "Show graph · Profile · Debug in PyNative · Export…" above each nn.Cell subclass, and "Profile
// distributed" where a script starts distributed training.
import * as vscode from 'vscode';
import type { CellClassFinder } from './cellFinder';
import { distributedCallLine } from './distScript';

export interface CellTarget {
  uri: vscode.Uri;
  className: string;
}

export class CellCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly trust = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());
  private readonly source: vscode.Disposable;

  constructor(private readonly cells: CellClassFinder) {
    this.source = cells.onDidChange(() => this.changed.fire());
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    // Every action runs the user's code: nothing to offer in an untrusted workspace.
    if (!vscode.workspace.isTrusted) return [];
    const lenses: vscode.CodeLens[] = [];
    const distLine = distributedCallLine(document.getText());
    if (distLine !== undefined) {
      lenses.push(
        new vscode.CodeLens(new vscode.Range(distLine, 0, distLine, 0), {
          title: 'Profile distributed',
          command: 'mindscope.profileDistributed',
          arguments: [{ uri: document.uri }],
          tooltip: 'Run this script under msrun with the Profiler on in every rank',
        }),
      );
    }
    for (const cell of await this.cells.find(document)) {
      const range = new vscode.Range(cell.line, 0, cell.line, 0);
      const target: CellTarget = { uri: document.uri, className: cell.name };
      lenses.push(
        lens(
          range,
          'Show graph',
          'mindscope.showGraph',
          target,
          'Compile in GRAPH_MODE and show the graph',
        ),
        lens(range, 'Profile', 'mindscope.profile', target, 'Profile a few forward steps'),
        lens(
          range,
          'Debug in PyNative',
          'mindscope.debugPyNative',
          target,
          'Run one forward call under the debugger, PyNative forced',
        ),
        lens(range, 'Export…', 'mindscope.export', target, 'Export to MINDIR/ONNX and verify'),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.trust.dispose();
    this.source.dispose();
    this.changed.dispose();
  }
}

function lens(
  range: vscode.Range,
  title: string,
  command: string,
  target: CellTarget,
  tooltip: string,
): vscode.CodeLens {
  return new vscode.CodeLens(range, { title, command, arguments: [target], tooltip });
}

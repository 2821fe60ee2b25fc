// Graph-mode diagnostics in the real workbench: a squiggle on a set literal inside construct,
// and its quick fix applied through VS Code's own code-action machinery.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { E2ETest, waitFor } from './harness';

const NET = `import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        keep = {1, 2}
        return x * len(keep)
`;

function mindscopeDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MindScope');
}

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

let opened: { doc: vscode.TextDocument; diagnostic: vscode.Diagnostic } | undefined;

export const diagnosticsTests: E2ETest[] = [
  {
    // Its screenshot shows the squiggle and the problem count in the status bar.
    name: 'a set literal in construct gets a squiggle',
    run: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-e2e-diag-'));
      const file = path.join(dir, 'net.py');
      fs.writeFileSync(file, NET);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc);

      const [diagnostic] = await waitFor(
        'MS111 on net.py',
        () => mindscopeDiagnostics(doc.uri),
        (d) => d.length === 1,
        60_000,
      );
      assert.ok(diagnostic);
      assert.equal(codeOf(diagnostic), 'MS111');
      assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(doc.getText(diagnostic.range), '{1, 2}');
      opened = { doc, diagnostic };
    },
  },
  {
    name: 'the quick fix rewrites the set literal and the squiggle goes',
    run: async () => {
      assert.ok(opened, 'the previous test did not open net.py');
      const { doc, diagnostic } = opened;
      await vscode.window.showTextDocument(doc);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        diagnostic.range,
      );
      const fix = actions.find((a) => a.isPreferred === true && a.title.endsWith('(MS111)'));
      assert.ok(fix?.edit, `no quick fix among: ${actions.map((a) => a.title).join(' | ')}`);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.match(doc.getText(), /keep = \(1, 2\)/);
      await waitFor(
        'diagnostics to clear',
        () => mindscopeDiagnostics(doc.uri),
        (d) => !d.length,
      );
      await doc.save();
    },
  },
];

// MindSpore-aware completion, hover and signature help in the real workbench.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { E2E_ENV } from '../protocol';
import { E2ETest, env, waitFor } from './harness';
import { completions, docText, hoverText, label } from './providers';

const UNANNOTATED = [
  'import mindspore as ms',
  'from mindspore import nn, ops',
  '',
  '',
  'class Head(nn.Cell):',
  '    def __init__(self):',
  '        super().__init__()',
  '        self.fc = nn.Dense(4, 2)',
  '',
  '    def construct(self, x):',
  '        h = ops.matmul(x, x)',
  '        return self.fc(h)',
  '',
].join('\n');

async function openModel(): Promise<vscode.TextDocument> {
  const file = path.join(env(E2E_ENV.repo), 'examples', 'cifar_resnet', 'model.py');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(doc);
  return doc;
}

async function openUntitled(content: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument({ language: 'python', content });
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** The position just after the first `marker` in the document. */
function after(doc: vscode.TextDocument, marker: string): vscode.Position {
  const offset = doc.getText().indexOf(marker);
  if (offset < 0) throw new Error(`${marker} not found in ${doc.uri.toString()}`);
  return doc.positionAt(offset + marker.length);
}

export const languageTests: E2ETest[] = [
  {
    name: 'completes ops members with their real signatures in the example model',
    run: async () => {
      const doc = await openModel();
      const at = after(doc, 'ops.');
      const items = await waitFor(
        'matmul among completions after ops.',
        () => completions(doc, at, 5_000),
        (list) => list.some((i) => label(i) === 'matmul'),
        60_000,
      );
      const matmul = items.find((i) => label(i) === 'matmul');
      assert.ok(matmul);
      assert.equal(matmul.detail, 'ops.matmul');
      assert.match(docText(matmul), /matmul/);
      assert.ok(typeof matmul.label !== 'string' && matmul.label.detail === '(input, other)');
      const deprecated = items.find((i) => label(i) === 'floor_div');
      assert.ok(deprecated?.tags?.includes(vscode.CompletionItemTag.Deprecated));
    },
  },
  {
    name: 'offers Tensor methods on an unannotated construct argument',
    run: async () => {
      const doc = await openUntitled(UNANNOTATED);
      const editor = vscode.window.activeTextEditor;
      assert.ok(editor);
      const end = after(doc, 'h = ops.matmul(x, x)');
      await editor.edit((e) => e.insert(end, '\n        x.'));
      const at = after(doc, '        x.');
      const labels = (
        await waitFor(
          'Tensor methods after x.',
          () => completions(doc, at),
          (list) => list.some((i) => label(i) === 'asnumpy'),
          60_000,
        )
      ).map(label);
      assert.ok(labels.includes('reshape') && labels.includes('sum'), labels.join(','));
      await vscode.commands.executeCommand('editor.action.triggerSuggest');
      await new Promise((r) => setTimeout(r, 500));
      await vscode.commands.executeCommand('hideSuggestWidget');
    },
  },
  {
    name: 'hover on ops.matmul shows the real signature and the official page',
    run: async () => {
      const doc = await openUntitled(UNANNOTATED);
      const at = after(doc, 'ops.mat');
      const text = await waitFor(
        'a hover on ops.matmul',
        async () => hoverText(doc, at),
        (t) => t.includes('matmul'),
        60_000,
      );
      assert.ok(text.includes('mindspore.ops.matmul(input, other)'), text);
      assert.ok(text.includes('api_python/ops/mindspore.ops.matmul.html'), text);
    },
  },
  {
    name: 'signature help inside ops.matmul( marks the active parameter',
    run: async () => {
      const doc = await openUntitled(UNANNOTATED);
      const help = await waitFor(
        'signature help',
        async () =>
          await vscode.commands.executeCommand<vscode.SignatureHelp | undefined>(
            'vscode.executeSignatureHelpProvider',
            doc.uri,
            after(doc, 'ops.matmul(x, '),
          ),
        (h) => h !== undefined && h.signatures.length > 0,
        60_000,
      );
      assert.ok(help?.signatures[0]);
      assert.equal(help.signatures[0].label, 'ops.matmul(input, other)');
      assert.equal(help.activeParameter, 1);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    },
  },
];

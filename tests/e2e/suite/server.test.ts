// The extension activates, starts the language server from pyserver/ and completes MindSpore.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MindScopeApi } from '../../../extension/src/extension';
import { E2E_ENV } from '../protocol';
import { E2ETest, env, waitFor } from './harness';
import { completions, label } from './providers';

const EXTENSION_ID = 'mindscope.mindscope';

async function api(): Promise<MindScopeApi> {
  const extension = vscode.extensions.getExtension<MindScopeApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in the workbench`);
  return extension.isActive ? extension.exports : await extension.activate();
}

async function openModel(): Promise<vscode.TextEditor> {
  const file = path.join(env(E2E_ENV.repo), 'examples', 'cifar_resnet', 'model.py');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(doc);
}

/** The position just after the first `nn.` that the model file really contains. */
function afterNn(doc: vscode.TextDocument): vscode.Position {
  for (let line = 0; line < doc.lineCount; line++) {
    const column = doc.lineAt(line).text.indexOf('nn.Conv2d(');
    if (column >= 0) return new vscode.Position(line, column + 'nn.'.length);
  }
  throw new Error('examples/cifar_resnet/model.py has no nn.Conv2d( to complete at');
}

async function completionLabels(doc: vscode.TextDocument, at: vscode.Position): Promise<string[]> {
  return (await completions(doc, at)).map(label);
}

export const serverTests: E2ETest[] = [
  {
    name: 'activates on a Python file and starts the server',
    run: async () => {
      await openModel();
      const extension = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(extension);
      await waitFor('activation', () => extension.isActive, Boolean);
      const state = await (await api()).whenServerSettled();
      if (state.kind !== 'running') throw new Error(`server not running: ${JSON.stringify(state)}`);
      assert.equal(state.python, env(E2E_ENV.python));
    },
  },
  {
    name: 'completes nn members in the example model',
    run: async () => {
      const editor = await openModel();
      const at = afterNn(editor.document);
      editor.selection = new vscode.Selection(at, at);
      const labels = await waitFor(
        'Conv2d among completions after nn.',
        () => completionLabels(editor.document, at),
        (l) => l.includes('Conv2d'),
        60_000,
      );
      assert.ok(labels.includes('BatchNorm2d') && labels.includes('Dense'), labels.join(','));
      // Show the suggestion widget for the screenshot, as a user would see it.
      await vscode.commands.executeCommand('editor.action.triggerSuggest');
      await new Promise((r) => setTimeout(r, 500));
    },
  },
  {
    name: 'a missing interpreter is reported and restart recovers',
    run: async () => {
      const mindscope = await api();
      const config = vscode.workspace.getConfiguration('mindscope');
      await config.update('python', '/nonexistent/bin/python3', vscode.ConfigurationTarget.Global);
      try {
        const state = await waitFor(
          'an error state',
          () => mindscope.serverState,
          (s) => s.kind === 'error',
        );
        assert.ok(
          state.kind === 'error' && state.message.includes('was not found'),
          JSON.stringify(state),
        );
      } finally {
        await config.update('python', env(E2E_ENV.python), vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('notifications.clearAll');
      }
      await waitFor(
        'running again',
        () => mindscope.serverState,
        (s) => s.kind === 'running',
      );
      await vscode.commands.executeCommand('mindscope.restartServer');
      assert.equal(mindscope.serverState.kind, 'running');
      const editor = await openModel();
      const labels = await completionLabels(editor.document, afterNn(editor.document));
      assert.ok(labels.includes('Conv2d'));
    },
  },
];

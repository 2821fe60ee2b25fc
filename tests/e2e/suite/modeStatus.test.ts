// The execution-mode status item: what the language server finds in the active Python file or
// notebook, as the extension's API reports it and as the status bar really draws it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { E2ETest, waitFor } from './harness';
import { exampleFile, mindscopeApi, restoreLayout, serverRunning, workbench } from './webview';

const ITEM = '.statusbar-item:has(.codicon-circuit-board)';

const NET = `import mindspore as ms
from mindspore import nn

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x):
        return x * 2
`;

/** Waits until the item (through the API) says `text`; returns its tooltip. */
async function statusSays(text: string): Promise<string> {
  const api = await mindscopeApi();
  const shown = await waitFor(
    `the status item to say "${text}"`,
    () => api.fileModeStatus,
    (s) => s.visible && s.text === text,
    60_000,
  );
  return shown.tooltip;
}

/** Waits until the status bar itself draws the item with `label` (the icon is a codicon). */
async function statusBarShows(label: string): Promise<void> {
  await waitFor(
    `"${label}" in the status bar`,
    () => workbench(ITEM, { kind: 'texts' }),
    (a) => (a.values ?? []).some((v) => v?.trim() === label),
  );
}

function lineOf(file: string, needle: string): number {
  const line = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} in ${file}`);
  return line;
}

export const modeStatusTests: E2ETest[] = [
  {
    name: 'the status bar shows the mode and syntax level of the Python file',
    run: async () => {
      await serverRunning();
      await restoreLayout();
      const train = exampleFile('cifar_resnet', 'train.py');
      await vscode.window.showTextDocument(vscode.Uri.file(train));
      // train.py picks the mode from its --mode argument: both are possible.
      const tip = await statusSays('$(circuit-board) GRAPH/PyNative · LAX');
      const setAt = lineOf(train, 'ms.set_context(mode=');
      assert.match(tip, /\*\*Mode: GRAPH_MODE or PYNATIVE_MODE\*\*, chosen at run time/);
      assert.ok(tip.includes(`at line ${setAt + 1}.`), tip);
      assert.match(tip, /from the `mindscope\.graphMode\.syntaxLevel` setting/);
      await statusBarShows('GRAPH/PyNative · LAX');

      await vscode.window.showTextDocument(
        vscode.Uri.file(exampleFile('cifar_resnet', 'model.py')),
      );
      const modelTip = await statusSays('$(circuit-board) PyNative');
      assert.match(modelTip, /PyNative by default/);
      assert.match(modelTip, /\*\*Compiled: 2 functions\*\*: 2 Cell\.construct, 0 @jit/);
      await statusBarShows('PyNative');

      // Not Python: no item at all.
      await vscode.window.showTextDocument(vscode.Uri.file(exampleFile('README.md')));
      await waitFor(
        'the item hidden',
        async () => (await mindscopeApi()).fileModeStatus,
        (s) => !s.visible,
      );
      await waitFor(
        'no item in the status bar',
        () => workbench(ITEM),
        (a) => a.count === 0,
      );

      // Typing updates it: the level set in the file wins over the setting.
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ms-mode-')), 'net.py');
      fs.writeFileSync(file, NET);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
      await statusSays('$(circuit-board) GRAPH · LAX');
      const call = editor.document.lineAt(lineOf(file, 'set_context')).range;
      await editor.edit((e) =>
        e.replace(call, 'ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)'),
      );
      const strictTip = await statusSays('$(circuit-board) GRAPH · STRICT');
      assert.match(
        strictTip,
        /\*\*Syntax level: STRICT\*\*, from `ms\.set_context\(mode=ms\.GRAPH_MODE, jit_syntax_level=ms\.STRICT\)` at line 4\./,
      );
      await statusBarShows('GRAPH · STRICT');
      // The tooltip as the workbench renders it (and in the screenshot).
      await workbench(ITEM, { kind: 'hover' });
      const hover = await waitFor(
        'the tooltip of the item',
        () => workbench('.monaco-hover-content', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('Syntax level: STRICT')),
      );
      assert.match((hover.values ?? []).join('\n'), /Compiled: 1 function: 1 Cell\.construct/);
    },
  },
  {
    name: 'the status item opens a quick pick that goes to a compiled function',
    run: async () => {
      await restoreLayout();
      const model = exampleFile('cifar_resnet', 'model.py');
      await vscode.window.showTextDocument(vscode.Uri.file(model));
      await statusSays('$(circuit-board) PyNative');
      // What a click on the item runs; the pick stays open until an item is chosen.
      void vscode.commands.executeCommand('mindscope.showFileMode');
      const rows = '.quick-input-widget .quick-input-list .monaco-list-row';
      const listed = await waitFor(
        'the compiled functions in the quick pick',
        () => workbench(rows, { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('ResNet.construct')),
      );
      const texts = (listed.values ?? []).join('\n');
      assert.match(texts, /BasicBlock\.construct/);
      assert.match(texts, /Graph-mode rules/);
      await workbench(`${rows}:has-text("ResNet.construct")`, { kind: 'click' });
      const classLine = lineOf(model, 'class ResNet(');
      const target = fs
        .readFileSync(model, 'utf8')
        .split('\n')
        .findIndex((l, i) => i > classLine && l.includes('def construct('));
      await waitFor(
        "the editor at ResNet's construct",
        () => vscode.window.activeTextEditor,
        (e) => e?.document.uri.fsPath === model && e.selection.active.line === target,
      );
    },
  },
  {
    name: "a notebook's status comes from the cell that sets the mode",
    run: async () => {
      await restoreLayout();
      const notebook = await vscode.workspace.openNotebookDocument(
        vscode.Uri.file(exampleFile('notebook.ipynb')),
      );
      await vscode.window.showNotebookDocument(notebook);
      // Cell 4 sets PYNATIVE_MODE, a later one GRAPH_MODE: read top to bottom, GRAPH wins.
      const tip = await statusSays('$(circuit-board) GRAPH · LAX');
      const cell = notebook
        .getCells()
        .findIndex((c) => c.document.getText().includes('ms.set_context(mode=ms.GRAPH_MODE)'));
      assert.ok(cell > 0);
      assert.ok(tip.includes(`at cell ${cell + 1}, line 1.`), tip);
      assert.match(tip, /execution mode of this notebook/);
      assert.match(tip, /The mode is set 2 times/);
      await statusBarShows('GRAPH · LAX');
    },
  },
];

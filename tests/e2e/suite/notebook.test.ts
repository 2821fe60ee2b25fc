// A Jupyter notebook in the real workbench: VS Code sends its cells to the server through LSP
// notebook document sync, and a cell sees the imports and classes of the cells above it.
// Typing goes through the focused cell editor, as keystrokes do.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { E2ETest, waitFor } from './harness';
import { codeCell } from './notebookFiles';
import { completions, docText, hoverText, label } from './providers';
import { restoreLayout, serverRunning, workbench } from './webview';

// A magic, as notebooks have them: the server blanks it, the kernel runs it.
const IMPORTS = '%matplotlib inline\nimport mindspore as ms\nimport mindspore.nn as nn\n';
const MODEL = [
  'class Net(nn.Cell):',
  '    def __init__(self):',
  '        super().__init__()',
  '        self.features = nn.SequentialCell([',
  '            nn.Conv2d(3, 16, 3),',
  '        ])',
  '',
  '    def construct(self, x):',
  '        return self.features(x)',
  '',
].join('\n');
const GRAPH_ERROR = [
  'class Keep(nn.Cell):',
  '    def construct(self, x):',
  '        keep = {1, 2}',
  '        return x * len(keep)',
  '',
].join('\n');

/** Cells of the notebook: the indexes are the cells' places in it (markdown counts). */
const CELL = { imports: 0, model: 2, scratch: 3, graph: 4 } as const;

function notebookJson(): string {
  return JSON.stringify({
    cells: [
      codeCell(IMPORTS),
      { cell_type: 'markdown', metadata: {}, source: '## The model' },
      codeCell(MODEL),
      codeCell(''),
      codeCell(GRAPH_ERROR),
    ],
    metadata: {
      kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
      language_info: { name: 'python' },
    },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

let opened: vscode.NotebookEditor | undefined;

/** The test notebook, written once and shown (again) in the active editor group. */
async function notebookEditor(): Promise<vscode.NotebookEditor> {
  if (!opened) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-e2e-nb-'));
    const file = path.join(dir, 'layers.ipynb');
    fs.writeFileSync(file, notebookJson());
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    assert.equal(notebook.notebookType, 'jupyter-notebook');
    opened = await vscode.window.showNotebookDocument(notebook);
    return opened;
  }
  opened = await vscode.window.showNotebookDocument(opened.notebook);
  return opened;
}

function cellDocument(editor: vscode.NotebookEditor, index: number): vscode.TextDocument {
  const cell = editor.notebook.cellAt(index);
  assert.equal(cell.kind, vscode.NotebookCellKind.Code);
  assert.equal(cell.document.languageId, 'python');
  return cell.document;
}

/** Focuses the editor of cell `index` with the cursor at `at`, as a click there would. */
async function focusCell(
  editor: vscode.NotebookEditor,
  index: number,
  at: vscode.Position,
): Promise<vscode.TextEditor> {
  const document = cellDocument(editor, index);
  // From the notebook's list of cells, as Escape leaves a cell editor.
  await vscode.commands.executeCommand('notebook.cell.quitEdit');
  editor.selections = [new vscode.NotebookRange(index, index + 1)];
  editor.revealRange(new vscode.NotebookRange(index, index + 1));
  await vscode.commands.executeCommand('notebook.cell.edit');
  const text = await waitFor(
    `the editor of cell ${index} focused`,
    () => vscode.window.activeTextEditor,
    (e) => e?.document.uri.toString() === document.uri.toString(),
  );
  assert.ok(text);
  text.selection = new vscode.Selection(at, at);
  return text;
}

/** Types `text` at the cursor of the focused cell editor, keystroke by keystroke. */
async function typeInto(cell: vscode.TextEditor, text: string): Promise<void> {
  const before = cell.document.getText().length;
  for (const char of text) {
    await vscode.commands.executeCommand('type', { text: char });
  }
  await waitFor(
    `"${text}" typed into the cell`,
    () => cell.document.getText().length,
    (n) => n >= before + text.length,
  );
}

/** The order VS Code shows with nothing typed after the dot. */
function shownOrder(items: vscode.CompletionItem[]): vscode.CompletionItem[] {
  const key = (i: vscode.CompletionItem) => i.sortText ?? label(i);
  return [...items].sort(
    (a, b) => key(a).localeCompare(key(b)) || label(a).localeCompare(label(b)),
  );
}

function mindscopeDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MindScope');
}

const SUGGEST_ROWS = '.suggest-widget.visible .monaco-list-row .label-name';

/** The labels of the suggest widget's rows as drawn, top first, once it shows `first` on top. */
async function suggestWidgetRows(first: string): Promise<string[]> {
  await vscode.commands.executeCommand('editor.action.triggerSuggest');
  const shown = await waitFor(
    `the suggest widget with ${first} on top`,
    () => workbench(SUGGEST_ROWS, { kind: 'texts' }),
    (a) => a.values?.[0]?.trim() === first,
  );
  return (shown.values ?? []).map((v) => v?.trim() ?? '');
}

export const notebookTests: E2ETest[] = [
  {
    // Its screenshot shows the suggest widget in the cell.
    name: 'notebook: nn. in a cell completes the layers of an import made in an earlier cell',
    run: async () => {
      await serverRunning();
      await restoreLayout();
      const editor = await notebookEditor();
      const cell = await focusCell(editor, CELL.scratch, new vscode.Position(0, 0));
      await typeInto(cell, 'net = Net()\nlayer = nn.');
      const at = cell.selection.active;
      assert.equal(cell.document.lineAt(at.line).text.slice(0, at.character), 'layer = nn.');
      const items = await waitFor(
        'Conv2d among the completions after nn. in the cell',
        () => completions(cell.document, at, 400),
        (list) => list.some((i) => label(i) === 'Conv2d'),
        60_000,
      );
      const labels = items.map(label);
      for (const layer of ['Dense', 'BatchNorm2d', 'SequentialCell', 'Cell']) {
        assert.ok(labels.includes(layer), `${layer} in ${labels.join(',')}`);
      }
      const conv = items.find((i) => label(i) === 'Conv2d');
      assert.ok(conv);
      assert.equal(conv.detail, 'nn.Conv2d');
      assert.match(docText(conv), /2D convolution layer/);
      const signature = typeof conv.label === 'string' ? undefined : conv.label.detail;
      assert.match(signature ?? '', /^\(in_channels, out_channels, kernel_size/);
      // A class of the model cell, through jedi on the notebook's cells joined.
      const names = await completions(cell.document, new vscode.Position(0, 'net = Ne'.length));
      assert.ok(names.map(label).includes('Net'));
      // The suggest widget as drawn, narrowed by a few more keystrokes.
      await typeInto(cell, 'Conv');
      const rows = await suggestWidgetRows('Conv1d');
      assert.ok(rows.includes('Conv2d'), rows.join(','));
    },
  },
  {
    name: 'notebook: hover on a layer in a cell shows the MindSpore signature',
    run: async () => {
      await vscode.commands.executeCommand('hideSuggestWidget');
      const editor = await notebookEditor();
      const model = cellDocument(editor, CELL.model);
      const line = MODEL.split('\n').findIndex((l) => l.includes('nn.Conv2d('));
      const at = new vscode.Position(line, model.lineAt(line).text.indexOf('Conv2d') + 2);
      const text = await waitFor(
        'a hover on nn.Conv2d in the cell',
        () => hoverText(model, at),
        (t) => t.includes('Conv2d'),
        60_000,
      );
      assert.ok(
        text.includes('class mindspore.nn.Conv2d(in_channels, out_channels, kernel_size'),
        text,
      );
      assert.ok(text.includes('api_python/nn/mindspore.nn.Conv2d.html'), text);
      // As the workbench draws it (and in the screenshot).
      await focusCell(editor, CELL.model, at);
      await vscode.commands.executeCommand('editor.action.showHover', { focus: 'noAutoFocus' });
      await waitFor(
        'the hover drawn in the notebook',
        () => workbench('.monaco-hover-content', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('mindspore.nn.Conv2d(in_channels')),
      );
    },
  },
  {
    name: 'notebook: in a layer list of a cell, the layer above ranks the next ones',
    run: async () => {
      await vscode.commands.executeCommand('editor.action.hideHover');
      const editor = await notebookEditor();
      const model = cellDocument(editor, CELL.model);
      const line = MODEL.split('\n').findIndex((l) => l.includes('nn.Conv2d('));
      const cell = await focusCell(editor, CELL.model, model.lineAt(line).range.end);
      await typeInto(cell, '\nnn.');
      const at = cell.selection.active;
      assert.equal(cell.document.lineAt(at.line).text.trim(), 'nn.');
      // The first items as shown: [label, sortText, description].
      const top = await waitFor(
        'the layers after nn. in the list ranked',
        async () =>
          shownOrder(await completions(cell.document, at))
            .slice(0, 3)
            .map((i) => [
              label(i),
              i.sortText,
              typeof i.label === 'string' ? '' : i.label.description,
            ]),
        (first) => first.some(([, sortText]) => sortText?.startsWith('00!')),
        60_000,
      );
      assert.deepEqual(
        top.slice(0, 2).map(([name, , description]) => [name, description]),
        [
          ['BatchNorm2d', 'often after Conv2d'],
          ['ReLU', 'often after Conv2d'],
        ],
      );
      // The workbench keeps the server's order: the followers of Conv2d on top.
      const rows = await suggestWidgetRows('BatchNorm2d');
      assert.equal(rows[1], 'ReLU');
      await vscode.commands.executeCommand('hideSuggestWidget');
      // The cell as it was: the next test reads the notebook's diagnostics.
      const typed = new vscode.Range(model.lineAt(line).range.end, at);
      assert.ok(await cell.edit((e) => e.delete(typed)));
      assert.equal(cell.document.getText(), MODEL);
    },
  },
  {
    // Its screenshot shows the squiggle in the cell.
    name: 'notebook: a graph-mode error in a cell gets a squiggle',
    run: async () => {
      const editor = await notebookEditor();
      const cell = cellDocument(editor, CELL.graph);
      const [diagnostic] = await waitFor(
        'MS111 on the cell',
        () => mindscopeDiagnostics(cell.uri),
        (d) => d.length > 0,
        60_000,
      );
      assert.ok(diagnostic);
      assert.equal(
        typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : diagnostic.code,
        'MS111',
      );
      assert.equal(cell.getText(diagnostic.range), '{1, 2}');
      // The other cells have nothing to say.
      for (const index of [CELL.imports, CELL.model]) {
        assert.deepEqual(mindscopeDiagnostics(cellDocument(editor, index).uri), []);
      }
      editor.revealRange(new vscode.NotebookRange(CELL.graph, CELL.graph + 1));
      await waitFor(
        'the squiggle drawn in the cell',
        () => workbench('.notebook-editor .squiggly-error'),
        (a) => a.count > 0,
      );
    },
  },
];

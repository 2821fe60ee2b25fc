// Running notebooks in the real workbench through MindScope's own controller (no Jupyter
// extension): Run All on a copy of examples/notebook.ipynb, errors, interrupt, restart, a
// kernel that dies, save and reopen, and no kernel process left once the notebook closes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UNTRUSTED_TESTS } from '../launches';
import { E2ETest, waitFor } from './harness';
import { exampleFile, mindscopeApi, restoreLayout, waitForElements, workbench } from './webview';

const CONTROLLER = { id: 'mindscope-kernel', extension: 'mindscope.mindscope' };
const ERROR_MIME = 'application/vnd.code.notebook.error';
const STDOUT_MIME = 'application/vnd.code.notebook.stdout';
const GRAPH_MIME = 'application/vnd.mindscope.graph+json';
const decoder = new TextDecoder();

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const RICH = [
  'import base64',
  'from IPython.display import HTML, JSON, SVG, Image, Markdown, display',
  `display(HTML("<b>bold</b>"), Markdown("**m**"), JSON({"k": 1}), Image(base64.b64decode("${PNG_BASE64}")))`,
  'display(SVG(\'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>\'))',
  'handle = display("first", display_id=True)',
].join('\n');
const CLEARS = [
  'from IPython.display import clear_output',
  'print("old", flush=True)',
  'clear_output(wait=True)',
  'print("new")',
].join('\n');
const COMPILE_ERROR = [
  'class Keep(nn.Cell):',
  '    def construct(self, x):',
  '        keep = {1, 2}',
  '        return x * len(keep)',
  '',
  '',
  'ms.set_context(mode=ms.GRAPH_MODE)',
  'Keep()(ops.ones((2,), ms.float32))',
].join('\n');

/** A copy of examples/ (the notebook imports cifar_resnet from its folder): saving it leaves
 * the repository untouched. */
function copyOfExample(): vscode.Uri {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-e2e-run-'));
  fs.cpSync(exampleFile('cifar_resnet'), path.join(dir, 'cifar_resnet'), {
    recursive: true,
    filter: (f) => !f.includes('__pycache__'),
  });
  fs.copyFileSync(exampleFile('notebook.ipynb'), path.join(dir, 'notebook.ipynb'));
  return vscode.Uri.file(path.join(dir, 'notebook.ipynb'));
}

let notebookUri: vscode.Uri | undefined;

async function notebook(): Promise<vscode.NotebookDocument> {
  notebookUri ??= copyOfExample();
  const document = await vscode.workspace.openNotebookDocument(notebookUri);
  await vscode.window.showNotebookDocument(document);
  return document;
}

function codeCells(nb: vscode.NotebookDocument): vscode.NotebookCell[] {
  return nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
}

/** Appends a code cell and returns it. */
async function appendCell(
  nb: vscode.NotebookDocument,
  source: string,
): Promise<vscode.NotebookCell> {
  const edit = new vscode.WorkspaceEdit();
  const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, source, 'python');
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [cell])]);
  assert.ok(await vscode.workspace.applyEdit(edit));
  const last = nb.cellAt(nb.cellCount - 1);
  assert.equal(last.document.getText(), source);
  return last;
}

function finishedSince(cell: vscode.NotebookCell, since: number): boolean {
  const timing = cell.executionSummary?.timing;
  return timing !== undefined && timing.startTime >= since && timing.endTime >= timing.startTime;
}

/** Runs `cells` with the notebook's own Run command (as the cell's Run button does). */
async function run(
  nb: vscode.NotebookDocument,
  cells: vscode.NotebookCell[],
  timeoutMs = 120_000,
): Promise<void> {
  const since = Date.now();
  for (const cell of cells) {
    void vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: cell.index, end: cell.index + 1 }],
      document: nb.uri,
    });
  }
  await waitFor(
    `${cells.length} cell(s) run`,
    () => cells.map((c) => finishedSince(c, since)),
    (done) => done.every(Boolean),
    timeoutMs,
  );
}

function outputText(outputs: readonly vscode.NotebookCellOutput[], mime: string): string {
  return outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === mime)
    .map((i) => decoder.decode(i.data))
    .join('');
}

function texts(cell: vscode.NotebookCell, mime = STDOUT_MIME): string {
  return outputText(cell.outputs, mime);
}

function errorOf(cell: vscode.NotebookCell): { name: string; message: string; stack?: string } {
  const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === ERROR_MIME);
  assert.ok(item, `an error output in ${JSON.stringify(cell.outputs)}`);
  return JSON.parse(decoder.decode(item.data)) as { name: string; message: string; stack?: string };
}

const ANSI = new RegExp(String.raw`\x1b\[[\d;]*m`, 'g');

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pids(nb: vscode.NotebookDocument): Promise<{ bridge?: number; kernel?: number }> {
  const api = await mindscopeApi();
  const ids = await waitFor(
    'a running kernel',
    () => api.notebooks.processIds(nb),
    Boolean,
    120_000,
  );
  assert.ok(ids?.bridge && ids.kernel, JSON.stringify(ids));
  return ids;
}

export const notebookRunTests: E2ETest[] = [
  {
    name: 'notebook run: the MindScope controller is selected for examples/notebook.ipynb',
    run: async () => {
      await restoreLayout();
      const api = await mindscopeApi();
      const nb = await notebook();
      // Preferred for a notebook importing mindspore: the toolbar suggests it before any choice.
      await waitFor(
        'MindScope suggested in the notebook toolbar',
        () => workbench('.notebook-toolbar-container .kernel-label', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('MindScope · MindSpore')),
      );
      // What picking it in the kernel picker does.
      await vscode.commands.executeCommand('notebook.selectKernel', CONTROLLER);
      await waitFor(
        'the MindScope controller selected',
        () => api.notebooks.isSelected(nb),
        Boolean,
      );
      assert.equal(api.notebooks.controllerId, CONTROLLER.id);
    },
  },
  {
    name: 'notebook run: Run All runs every cell; text and a graph drawn by the renderer',
    run: async () => {
      const nb = await notebook();
      const graph = await appendCell(nb, '%ms_graph net --input 2,3,32,32:float32');
      const since = Date.now();
      await vscode.commands.executeCommand('notebook.execute', nb.uri);
      const cells = codeCells(nb);
      await waitFor(
        'every cell run',
        () => cells.map((c) => finishedSince(c, since)),
        (d) => d.every(Boolean),
        300_000,
      );
      for (const cell of cells) {
        assert.equal(
          cell.executionSummary?.success,
          true,
          `cell ${cell.index}: ${texts(cell, ERROR_MIME)}`,
        );
      }
      // Execution order numbers follow the run.
      assert.deepEqual(
        cells.map((c) => c.executionSummary?.executionOrder),
        cells.map((_, i) => i + 1),
      );
      assert.match(texts(cells[1] as vscode.NotebookCell), /\(2, 3, 32, 32\) -> \(2, 10\)/);
      assert.match(texts(cells[2] as vscode.NotebookCell), /max \|graph - pynative\| =/);
      const graphItem = graph.outputs.flatMap((o) => o.items).find((i) => i.mime === GRAPH_MIME);
      assert.ok(graphItem, JSON.stringify(graph.outputs.map((o) => o.items.map((i) => i.mime))));
      const document = JSON.parse(decoder.decode(graphItem.data)) as { nodes?: unknown[] };
      assert.ok((document.nodes?.length ?? 0) > 10);
      // The MindScope renderer drew the graph inside the notebook's output webview.
      const editor = vscode.window.activeNotebookEditor;
      assert.ok(editor);
      editor.revealRange(
        new vscode.NotebookRange(graph.index, graph.index + 1),
        vscode.NotebookEditorRevealType.AtTop,
      );
      await waitForElements('', '.mindscope-output g.node.op', 2, 90_000);
    },
  },
  {
    name: 'notebook run: a cell with an error shows its traceback, and the next cells do not run',
    run: async () => {
      const nb = await notebook();
      const failing = await appendCell(nb, 'def f():\n    return 1 / 0\n\nf()');
      const after = await appendCell(nb, 'print("not reached")');
      const since = Date.now();
      void vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: failing.index, end: after.index + 1 }],
        document: nb.uri,
      });
      await waitFor('the failing cell run', () => finishedSince(failing, since), Boolean, 60_000);
      assert.equal(failing.executionSummary?.success, false);
      const error = errorOf(failing);
      assert.equal(error.name, 'ZeroDivisionError');
      assert.ok(error.stack?.includes('\x1b['), 'ANSI colours in the traceback');
      assert.match(stripAnsi(error.stack ?? ''), /return 1 \/ 0/);
      await waitFor(
        'the cell after it left unrun',
        () => after.executionSummary?.executionOrder,
        (o) => o === undefined,
      );
      assert.equal(after.outputs.length, 0);
    },
  },
  {
    name: 'notebook run: a GRAPH_MODE compile error shows the MindScope summary above the trace',
    run: async () => {
      const nb = await notebook();
      const cell = await appendCell(nb, COMPILE_ERROR);
      await run(nb, [cell]);
      assert.equal(cell.executionSummary?.success, false);
      const stack = stripAnsi(errorOf(cell).stack ?? '');
      assert.match(stack, /MindScope: GRAPH_MODE compile failed/);
      assert.match(stack, /keep = \{1, 2\}/);
    },
  },
  {
    name: 'notebook run: rich outputs, a display updated from another cell, clear_output, 10,000 lines',
    run: async () => {
      const nb = await notebook();
      const shows = await appendCell(nb, RICH);
      const updates = await appendCell(nb, "handle.update('second')");
      const clears = await appendCell(nb, CLEARS);
      const prints = await appendCell(nb, 'for i in range(10_000):\n    print("line", i)');
      await run(nb, [shows, updates, clears, prints]);
      const mimes = shows.outputs.flatMap((o) => o.items.map((i) => i.mime));
      for (const mime of ['text/html', 'text/markdown', 'image/svg+xml', 'application/json']) {
        assert.ok(mimes.includes(mime), `${mime} in ${mimes.join(',')}`);
      }
      const png = shows.outputs.flatMap((o) => o.items).find((i) => i.mime === 'image/png');
      assert.ok(png);
      assert.deepEqual([...png.data.slice(1, 4)], [0x50, 0x4e, 0x47], 'PNG bytes, not base64');
      // The handle's output in the first cell now shows what the second cell put there.
      const last = shows.outputs[shows.outputs.length - 1];
      assert.equal(outputText(last ? [last] : [], 'text/plain'), "'second'");
      assert.equal(updates.outputs.length, 0);
      assert.equal(texts(clears), 'new\n');
      const printed = texts(prints);
      assert.equal(printed.split('\n').length, 10_001);
      assert.ok(printed.endsWith('line 9999\n'));
      // Batched: one output, a few hundred items at most rather than one per line.
      assert.equal(prints.outputs.length, 1);
      assert.ok(
        (prints.outputs[0]?.items.length ?? 0) < 300,
        String(prints.outputs[0]?.items.length),
      );
      await waitFor(
        'the kernel status in the status bar',
        () => workbench('.statusbar-item', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('MindScope kernel: idle')),
      );
    },
  },
  {
    name: 'notebook run: input() is answered through an input box',
    run: async () => {
      const nb = await notebook();
      const asks = await appendCell(nb, 'name = input("who? ")\nprint("hi", name)');
      const since = Date.now();
      void vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: asks.index, end: asks.index + 1 }],
        document: nb.uri,
      });
      const box = '.quick-input-widget .quick-input-box input';
      await waitFor(
        'the input box with the prompt',
        () => workbench('.quick-input-widget .quick-input-message', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('who?')),
        60_000,
      );
      await workbench(box, { kind: 'fill', text: 'MindSpore' });
      await waitFor('the cell run', () => finishedSince(asks, since), Boolean, 60_000);
      assert.equal(asks.executionSummary?.success, true);
      assert.equal(texts(asks), 'hi MindSpore\n');
    },
  },
  {
    name: 'notebook run: interrupt a long-running cell, then run another',
    run: async () => {
      const nb = await notebook();
      const long = await appendCell(
        nb,
        'import time\nprint("started", flush=True)\nfor _ in range(600):\n    time.sleep(0.1)',
      );
      const next = await appendCell(nb, 'print(6 * 7)');
      const since = Date.now();
      void vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: long.index, end: long.index + 1 }],
        document: nb.uri,
      });
      await waitFor(
        'the long cell printing',
        () => texts(long),
        (t) => t.includes('started'),
        60_000,
      );
      await vscode.commands.executeCommand('notebook.cancelExecution', nb.uri);
      await waitFor('the long cell interrupted', () => finishedSince(long, since), Boolean, 30_000);
      assert.equal(long.executionSummary?.success, false);
      assert.equal(errorOf(long).name, 'KeyboardInterrupt');
      await run(nb, [next]);
      assert.equal(next.executionSummary?.success, true);
      assert.equal(texts(next), '42\n');
    },
  },
  {
    name: 'notebook run: restart starts a fresh kernel, and cells run again',
    run: async () => {
      const nb = await notebook();
      const before = await pids(nb);
      await vscode.commands.executeCommand('mindscope.restartKernel');
      const after = await pids(nb);
      assert.notEqual(after.kernel, before.kernel);
      await waitFor(
        'the old kernel gone',
        () => alive(before.kernel) || alive(before.bridge),
        (a) => !a,
      );
      const probe = await appendCell(nb, 'print("net" in dir())');
      await run(nb, [probe]);
      assert.equal(texts(probe), 'False\n');
      assert.equal(probe.executionSummary?.executionOrder, 1);
    },
  },
  {
    name: 'notebook run: a kernel that dies mid-cell fails the cell; the next run starts a new one',
    run: async () => {
      const nb = await notebook();
      const before = await pids(nb);
      const dying = await appendCell(nb, 'import os\nos._exit(3)');
      await run(nb, [dying]);
      assert.equal(dying.executionSummary?.success, false);
      assert.match(errorOf(dying).message, /kernel died/i);
      await waitFor(
        'the dead kernel gone',
        () => alive(before.kernel),
        (a) => !a,
      );
      const next = await appendCell(nb, 'print("alive")');
      await run(nb, [next]);
      assert.equal(texts(next), 'alive\n');
      assert.notEqual((await pids(nb)).kernel, before.kernel);
    },
  },
  {
    name: 'notebook run: save and reopen keeps the outputs',
    run: async () => {
      const nb = await notebook();
      assert.ok(await nb.save());
      const saved = JSON.parse(fs.readFileSync(nb.uri.fsPath, 'utf8')) as {
        cells: {
          cell_type: string;
          execution_count: number | null;
          outputs?: { output_type: string; data?: Record<string, unknown>; text?: unknown }[];
        }[];
      };
      const code = saved.cells.filter((c) => c.cell_type === 'code');
      const kinds = new Set(code.flatMap((c) => (c.outputs ?? []).map((o) => o.output_type)));
      for (const kind of ['stream', 'display_data', 'error'])
        assert.ok(kinds.has(kind), [...kinds].join(','));
      const graphCell = code.find((c) =>
        (c.outputs ?? []).some((o) => o.data?.[GRAPH_MIME] !== undefined),
      );
      assert.ok(graphCell, 'the graph output saved with its MIME type');
      assert.ok(code.some((c) => typeof c.execution_count === 'number'));
      // Reopen from disk: the outputs come back through the ipynb serializer.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const reopened = await vscode.workspace.openNotebookDocument(nb.uri);
      const texts2 = codeCells(reopened).map((c) => texts(c));
      assert.ok(texts2.includes('42\n'), JSON.stringify(texts2));
    },
  },
  {
    name: 'notebook run: closing the notebook leaves no kernel process',
    run: async () => {
      // Opened as a user opens it, in an editor: a notebook that an extension opened with
      // openNotebookDocument (as the other tests do) stays open in VS Code for up to 3 minutes
      // after its last editor closes, so its close event would come that late.
      const uri = copyOfExample();
      await vscode.commands.executeCommand('vscode.openWith', uri, 'jupyter-notebook');
      const nb = await waitFor(
        'the notebook open in an editor',
        () => vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString()),
        Boolean,
      );
      assert.ok(nb);
      const api = await mindscopeApi();
      await vscode.commands.executeCommand('notebook.selectKernel', CONTROLLER);
      await waitFor(
        'the MindScope controller selected',
        () => api.notebooks.isSelected(nb),
        Boolean,
      );
      const cell = await appendCell(nb, 'print(1)');
      await run(nb, [cell]);
      const ids = await pids(nb);
      await nb.save();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor(
        'the bridge and kernel processes gone',
        () => [alive(ids.bridge), alive(ids.kernel)],
        (a) => !a[0] && !a[1],
        60_000,
      );
    },
  },
];

export const notebookUntrustedTests: E2ETest[] = [
  {
    name: UNTRUSTED_TESTS.notebook,
    run: async () => {
      assert.equal(vscode.workspace.isTrusted, false);
      await restoreLayout();
      const api = await mindscopeApi();
      const nb = await notebook();
      await assert.rejects(api.notebooks.kernelFor(nb), /not trusted/);
      await vscode.commands.executeCommand('notebook.selectKernel', CONTROLLER);
      await waitFor(
        'the MindScope controller selected',
        () => api.notebooks.isSelected(nb),
        Boolean,
      );
      const cell = codeCells(nb)[0];
      assert.ok(cell);
      // The cell's Run button: VS Code first asks for trust (its dialog, refused in tests; the
      // command stays pending), and runs nothing.
      void vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: cell.index, end: cell.index + 1 }],
        document: nb.uri,
      });
      assert.equal(cell.outputs.length, 0);
      assert.equal(await api.notebooks.processIds(nb), undefined);
      // Asked directly (as Debug Cell does), MindScope refuses and says why, in one line.
      await api.notebooks.executeCells(nb, [cell]);
      assert.equal(cell.outputs.length, 0);
      assert.equal(cell.executionSummary?.success, undefined);
      assert.equal(await api.notebooks.processIds(nb), undefined);
      await waitFor(
        'the untrusted notice',
        () => workbench('.notifications-toasts .notification-list-item-message', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('is not trusted, so no kernel starts')),
      );
    },
  },
];

// Debugging a notebook cell in the real workbench through MindScope's inline debug adapter (no
// Python or Jupyter extension): a breakpoint inside construct() of a Cell defined in a
// GRAPH_MODE notebook stops at that line, `x` reads as a Tensor, step and continue work, and
// after the session the next cell compiles in GRAPH_MODE again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UNTRUSTED_TESTS } from '../launches';
import { E2E_ENV } from '../protocol';
import { E2ETest, env, screenshot, waitFor } from './harness';
import { codeCell } from './notebookFiles';
import { mindscopeApi, restoreLayout, workbench } from './webview';

const SETUP = [
  'import os',
  'import mindspore as ms',
  'from mindspore import nn',
  'ms.set_device("CPU")',
  'ms.set_context(mode=ms.GRAPH_MODE)',
  'x = ms.Tensor([[1.0, -2.0, 3.0, 4.0]], ms.float32)',
].join('\n');
const NET = [
  'class Net(nn.Cell):',
  '    def __init__(self):',
  '        super().__init__()',
  '        self.relu = nn.ReLU()',
  '',
  '    def construct(self, x):',
  '        y = self.relu(x) * 2',
  '        return y + 1',
].join('\n');
/** 0-based line of the breakpoint in NET. */
const BREAK_LINE = 6;
const CALL = 'out = Net()(x)\nprint("cell net:", out.asnumpy().tolist())';
const CHECK_GRAPH = [
  'n2 = Net()',
  'n2(x)',
  'print("mode", ms.get_context("mode") == ms.GRAPH_MODE, "compiled", n2._compiled,',
  '      "MS_JIT", os.environ.get("MS_JIT"))',
].join('\n');
const MODULE = [
  'from mindspore import nn',
  '',
  '',
  'class WsNet(nn.Cell):',
  '    def __init__(self):',
  '        super().__init__()',
  '        self.relu = nn.ReLU()',
  '',
  '    def construct(self, x):',
  '        h = self.relu(x)',
  '        return h - 1',
  '',
].join('\n');
/** 0-based line of the breakpoint in MODULE. */
const MODULE_BREAK_LINE = 9;
const IMPORTED = 'from wsnet import WsNet\nprint("module net:", WsNet()(x).asnumpy().tolist())';
/** Plain Python: under a debugger, `import mindspore` alone takes minutes (every line traced). */
const PLAIN = 'print("plain python", 6 * 7)';
const CELL = { setup: 0, net: 1, call: 2, check: 3, imported: 4, plain: 5 } as const;
const STDOUT_MIME = 'application/vnd.code.notebook.stdout';

function notebookJson(): string {
  return JSON.stringify({
    cells: [
      codeCell(SETUP),
      codeCell(NET),
      codeCell(CALL),
      codeCell(CHECK_GRAPH),
      codeCell(IMPORTED),
      codeCell(PLAIN),
    ],
    metadata: {
      kernelspec: { display_name: 'MindScope', language: 'python', name: 'mindscope' },
      language_info: { name: 'python' },
    },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

function stdout(cell: vscode.NotebookCell): string {
  const decoder = new TextDecoder();
  return cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === STDOUT_MIME)
    .map((i) => decoder.decode(i.data))
    .join('');
}

/** Runs one cell as its Run button does and waits until it finished. */
async function runCell(cell: vscode.NotebookCell): Promise<void> {
  const since = Date.now();
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: cell.index, end: cell.index + 1 }],
    document: cell.notebook.uri,
  });
  await waitFor(
    `cell ${cell.index} run`,
    () => cell.executionSummary?.timing,
    (t) => t !== undefined && t.startTime >= since && t.endTime >= t.startTime,
    180_000,
  );
  assert.equal(cell.executionSummary?.success, true, `cell ${cell.index}: ${stdout(cell)}`);
}

interface Frame {
  id: number;
  name: string;
  line: number;
  source?: { path?: string; name?: string };
}
interface Variable {
  name: string;
  value: string;
  type?: string;
  variablesReference: number;
}

/** Every message the adapter sends, as VS Code receives it. */
function watchAdapter(): {
  messages: { type?: string; event?: string; body?: unknown }[];
} & vscode.Disposable {
  const messages: { type?: string; event?: string; body?: unknown }[] = [];
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory('mindscope-notebook', {
    createDebugAdapterTracker: () => ({
      onDidSendMessage: (m: { type?: string; event?: string; body?: unknown }) => messages.push(m),
    }),
  });
  return Object.assign(tracker, { messages });
}

async function waitStopped(
  seen: { type?: string; event?: string; body?: unknown }[],
  after: number,
): Promise<number> {
  const stop = await waitFor(
    'a stopped event',
    () => seen.slice(after).find((m) => m.type === 'event' && m.event === 'stopped'),
    (m) => m !== undefined,
    180_000,
  );
  return (stop?.body as { threadId: number }).threadId;
}

async function topFrame(session: vscode.DebugSession, threadId: number): Promise<Frame> {
  const trace = (await session.customRequest('stackTrace', { threadId })) as {
    stackFrames: Frame[];
  };
  const top = trace.stackFrames[0];
  assert.ok(top, 'a stack frame');
  return top;
}

async function locals(
  session: vscode.DebugSession,
  frameId: number,
): Promise<Map<string, Variable>> {
  const { scopes } = (await session.customRequest('scopes', { frameId })) as {
    scopes: { name: string; variablesReference: number }[];
  };
  const scope = scopes.find((s) => s.name === 'Locals');
  assert.ok(scope, JSON.stringify(scopes));
  const { variables } = (await session.customRequest('variables', {
    variablesReference: scope.variablesReference,
  })) as { variables: Variable[] };
  return new Map(variables.map((v) => [v.name, v]));
}

let fixture: vscode.NotebookDocument | undefined;

/** The test notebook and the module it imports, in a folder of its own. */
let fixturePath: string | undefined;

/** The notebook file, written (with the module it imports) into a folder of its own once. */
function fixtureFile(): string {
  if (!fixturePath) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-e2e-debug-'));
    fixturePath = path.join(dir, 'debug_construct.ipynb');
    fs.writeFileSync(fixturePath, notebookJson());
    fs.writeFileSync(path.join(dir, 'wsnet.py'), MODULE);
  }
  return fixturePath;
}

async function openFixture(): Promise<vscode.NotebookDocument> {
  fixture ??= await vscode.workspace.openNotebookDocument(vscode.Uri.file(fixtureFile()));
  return fixture;
}

/** The test notebook shown, with the MindScope controller selected. */
async function debugNotebook(): Promise<vscode.NotebookDocument> {
  const notebook = await openFixture();
  const editor = await vscode.window.showNotebookDocument(notebook);
  const api = await mindscopeApi();
  if (!api.notebooks.isSelected(notebook)) {
    await vscode.commands.executeCommand('notebook.selectKernel', {
      notebookEditor: editor,
      id: api.notebooks.controllerId,
      extension: 'mindscope.mindscope',
    });
  }
  await waitFor('the MindScope controller', () => api.notebooks.isSelected(notebook), Boolean);
  return notebook;
}

function codeCellCount(notebook: vscode.NotebookDocument): number {
  return notebook.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code).length;
}

async function pids(notebook: vscode.NotebookDocument): Promise<{ kernel?: number }> {
  const api = await mindscopeApi();
  const ids = await waitFor(
    'a running kernel',
    () => api.notebooks.processIds(notebook),
    Boolean,
    120_000,
  );
  assert.ok(ids?.kernel, JSON.stringify(ids));
  return ids;
}

let preparedIn: number | undefined;

/** The test notebook with its setup and Net cells run (normally) in the running kernel: each
 * test can run alone (MINDSCOPE_E2E_GREP), and after a restart. */
async function preparedNotebook(): Promise<vscode.NotebookDocument> {
  const notebook = await debugNotebook();
  const api = await mindscopeApi();
  const kernel = (await api.notebooks.processIds(notebook))?.kernel;
  if (kernel === undefined || kernel !== preparedIn) {
    await runCell(notebook.cellAt(CELL.setup));
    await runCell(notebook.cellAt(CELL.net));
    preparedIn = (await pids(notebook)).kernel;
  }
  return notebook;
}

interface Paused {
  session: vscode.DebugSession;
  thread: number;
  top: Frame;
  adapter: ReturnType<typeof watchAdapter>;
  /** Resolves when the session has ended. */
  ended: Promise<void>;
}

/** Debug Cell on `cell` with one breakpoint; resolves once it stopped. */
async function debugCellUntilStopped(
  cell: vscode.NotebookCell,
  breakpoint: vscode.SourceBreakpoint,
): Promise<Paused> {
  vscode.debug.addBreakpoints([breakpoint]);
  const adapter = watchAdapter();
  const ended = new Promise<void>((resolve) => {
    const sub = vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.type !== 'mindscope-notebook') return;
      sub.dispose();
      resolve();
    });
  });
  const started = await vscode.commands.executeCommand<boolean>('mindscope.debugCell', cell);
  assert.ok(started, 'the debug session started');
  const thread = await waitStopped(adapter.messages, 0);
  const session = vscode.debug.activeDebugSession;
  assert.ok(session, 'an active debug session');
  assert.equal(session.type, 'mindscope-notebook');
  return { session, thread, top: await topFrame(session, thread), adapter, ended };
}

/** After a test, passed or not: no session left, no breakpoint, no tracker. */
async function release(paused: Paused | undefined, breakpoint: vscode.SourceBreakpoint) {
  vscode.debug.removeBreakpoints([breakpoint]);
  if (!paused) return;
  paused.adapter.dispose();
  if (vscode.debug.activeDebugSession === paused.session) {
    await vscode.debug.stopDebugging(paused.session);
  }
}

const ROWS = '.debug-view-content .monaco-list-row';
async function rowTexts(): Promise<string[]> {
  const rows = await workbench(ROWS, { kind: 'texts' });
  return (rows.values ?? []).map((t) => (t ?? '').trim());
}

/** The README's screenshot: the debug view, wider, with x expanded, beside the paused cell. */
async function screenshotPaused(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await vscode.commands.executeCommand('workbench.view.debug');
  const isX = (t: string) => /^x\b.*Tensor\(/.test(t);
  const rows = await waitFor('x in the Variables view', rowTexts, (r) => r.some(isX));
  await workbench(ROWS, { kind: 'click', nth: rows.findIndex(isX) });
  await waitFor('x expanded', rowTexts, (r) => r.some((t) => t.startsWith('shape')));
  await screenshot(env(E2E_ENV.results), 'notebook-debugger');
}

export const notebookDebugTests: E2ETest[] = [
  {
    name: "notebook debug: Debug Cell in the cell's run menu runs the cell under the debugger",
    run: async () => {
      await restoreLayout();
      const notebook = await preparedNotebook();
      const editor = vscode.window.activeNotebookEditor;
      assert.ok(editor?.notebook === notebook);
      const target = notebook.cellAt(CELL.plain);
      editor.revealRange(new vscode.NotebookRange(target.index, target.index + 1));
      const ended = new Promise<vscode.DebugSession>((resolve) => {
        const sub = vscode.debug.onDidTerminateDebugSession((s) => {
          sub.dispose();
          resolve(s);
        });
      });
      // The cell's run menu: the chevron beside its Run button (cells are listed in order).
      const toolbars = '.run-button-container';
      const chevron = `${toolbars} a[aria-label="More..."]`;
      const nth = await waitFor(
        'the run menus of the code cells',
        () => workbench(chevron),
        (a) => a.count === codeCellCount(notebook),
      ).then(() => target.index);
      await workbench(toolbars, { kind: 'hover', nth });
      await workbench(chevron, { kind: 'click', nth });
      const items = '.monaco-menu .action-item .action-label';
      const menu = await waitFor(
        'the run menu',
        () => workbench(items, { kind: 'texts' }),
        (a) => a.count > 0,
      );
      const debug = (menu.values ?? []).findIndex((t) => t?.trim() === 'Debug Cell');
      assert.ok(debug >= 0, JSON.stringify(menu.values));
      const since = Date.now();
      await workbench(items, { kind: 'click', nth: debug });
      const session = await ended;
      assert.equal(session.type, 'mindscope-notebook');
      assert.equal(session.configuration.cell, target.document.uri.toString());
      const summary = target.executionSummary;
      assert.ok(summary?.timing && summary.timing.startTime >= since, JSON.stringify(summary));
      assert.match(stdout(target), /plain python 42/);
      await notebook.save();
    },
  },
  {
    name: 'notebook debug: a breakpoint in construct() of a GRAPH_MODE notebook stops in VS Code',
    run: async () => {
      await restoreLayout();
      const notebook = await preparedNotebook();
      const cell = (i: number) => notebook.cellAt(i);

      const netUri = cell(CELL.net).document.uri;
      const breakpoint = new vscode.SourceBreakpoint(
        new vscode.Location(netUri, new vscode.Position(BREAK_LINE, 0)),
      );
      let paused: Paused | undefined;
      try {
        paused = await debugCellUntilStopped(cell(CELL.call), breakpoint);
        const { session, thread, top, adapter } = paused;
        // Stopped inside construct, at the breakpoint's line of the cell that defines Net.
        assert.equal(top.name, 'construct');
        assert.equal(top.line, BREAK_LINE + 1);
        assert.equal(top.source?.path, netUri.toString(), JSON.stringify(top.source));
        const vars = await locals(session, top.id);
        const x = vars.get('x');
        assert.ok(x, `x among ${[...vars.keys()].join(', ')}`);
        assert.match(x.value, /^Tensor\(shape=\(1, 4\), dtype=Float32\)/);
        assert.match(x.value, /-2/);
        const { variables: parts } = (await session.customRequest('variables', {
          variablesReference: x.variablesReference,
        })) as { variables: Variable[] };
        const names = parts.map((p) => p.name);
        assert.ok(
          ['shape', 'dtype'].every((n) => names.includes(n)),
          names.join(', '),
        );
        await screenshotPaused();

        // Step: the next line of construct, with y computed in PyNative.
        const before = adapter.messages.length;
        await session.customRequest('next', { threadId: thread });
        const stepped = await topFrame(session, await waitStopped(adapter.messages, before));
        assert.equal(stepped.line, BREAK_LINE + 2);
        const y = (await locals(session, stepped.id)).get('y');
        assert.match(y?.value ?? '', /^Tensor\(shape=\(1, 4\)/);

        // Continue: the cell finishes, and the session ends with it.
        await session.customRequest('continue', { threadId: thread });
        await paused.ended;
        assert.match(stdout(cell(CELL.call)), /cell net: \[\[3\.0, 1\.0, 7\.0, 9\.0\]\]/);
      } finally {
        await release(paused, breakpoint);
      }

      // After the session the notebook compiles in GRAPH_MODE again.
      await runCell(cell(CELL.check));
      assert.match(stdout(cell(CELL.check)), /mode True compiled True MS_JIT None/);
      // Saved (outputs make it dirty), so the next test's layout reset asks nothing.
      await notebook.save();
    },
  },
  {
    name: 'notebook debug: a breakpoint in a workspace .py module the cell imports stops there',
    run: async () => {
      const notebook = await debugNotebook();
      const module = vscode.Uri.file(path.join(path.dirname(notebook.uri.fsPath), 'wsnet.py'));
      const breakpoint = new vscode.SourceBreakpoint(
        new vscode.Location(module, new vscode.Position(MODULE_BREAK_LINE, 0)),
      );
      let paused: Paused | undefined;
      try {
        paused = await debugCellUntilStopped(
          (await preparedNotebook()).cellAt(CELL.imported),
          breakpoint,
        );
        const { session, thread, top } = paused;
        assert.equal(top.name, 'construct');
        assert.equal(top.line, MODULE_BREAK_LINE + 1);
        // The workbench hands remote sources back as vscode-remote:// URIs.
        const where = top.source?.path ?? '';
        assert.ok(where === module.fsPath || where.endsWith(module.fsPath), where);
        // The caller's frame is the cell that was debugged, found without a dumpCell.
        const { stackFrames } = (await session.customRequest('stackTrace', {
          threadId: thread,
        })) as {
          stackFrames: Frame[];
        };
        const cellUri = notebook.cellAt(CELL.imported).document.uri.toString();
        assert.ok(
          stackFrames.some((f) => f.source?.path === cellUri),
          JSON.stringify(stackFrames.map((f) => f.source)),
        );
        await session.customRequest('continue', { threadId: thread });
        await paused.ended;
        assert.match(
          stdout(notebook.cellAt(CELL.imported)),
          /module net: \[\[0\.0, -1\.0, 2\.0, 3\.0\]\]/,
        );
      } finally {
        await release(paused, breakpoint);
      }
      await notebook.save();
    },
  },
  {
    name: 'notebook debug: a kernel restart mid-session ends the session; the next one works',
    run: async () => {
      const notebook = await debugNotebook();
      const api = await mindscopeApi();
      const breakpoint = new vscode.SourceBreakpoint(
        new vscode.Location(
          notebook.cellAt(CELL.net).document.uri,
          new vscode.Position(BREAK_LINE, 0),
        ),
      );
      let paused: Paused | undefined;
      try {
        paused = await debugCellUntilStopped(
          (await preparedNotebook()).cellAt(CELL.call),
          breakpoint,
        );
        const before = await pids(notebook);
        await api.notebooks.restart(notebook);
        await paused.ended;
        assert.equal(vscode.debug.activeDebugSession, undefined);
        const after = await pids(notebook);
        assert.notEqual(after.kernel, before.kernel, 'a new kernel');
      } finally {
        await release(paused, breakpoint);
      }
      // A fresh kernel takes a debugger again: Debug Cell runs the cell and ends.
      const ended = new Promise<void>((resolve) => {
        const sub = vscode.debug.onDidTerminateDebugSession(() => {
          sub.dispose();
          resolve();
        });
      });
      const since = Date.now();
      assert.ok(
        await vscode.commands.executeCommand<boolean>(
          'mindscope.debugCell',
          notebook.cellAt(CELL.plain),
        ),
      );
      await ended;
      const plain = notebook.cellAt(CELL.plain);
      const summary = plain.executionSummary;
      assert.ok(summary?.timing && summary.timing.startTime >= since, JSON.stringify(summary));
      assert.equal(summary.success, true);
      assert.match(stdout(plain), /plain python 42/);
      await notebook.save();
    },
  },
];

export const notebookDebugUntrustedTests: E2ETest[] = [
  {
    name: UNTRUSTED_TESTS.notebookDebug,
    run: async () => {
      assert.equal(vscode.workspace.isTrusted, false);
      await restoreLayout();
      const notebook = await openFixture();
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand('notifications.clearAll');
      const started = await vscode.commands.executeCommand<boolean>(
        'mindscope.debugCell',
        notebook.cellAt(CELL.call),
      );
      assert.equal(started, false);
      await waitFor(
        'the untrusted notice',
        () => workbench('.notification-list-item-message', { kind: 'texts' }),
        (a) => (a.values ?? []).some((v) => v?.includes('debugging a cell runs your code')),
      );
      assert.equal(vscode.debug.activeDebugSession, undefined);
      const api = await mindscopeApi();
      assert.equal(await api.notebooks.processIds(notebook), undefined, 'no kernel');
      await vscode.commands.executeCommand('notifications.clearAll');
    },
  },
];

// The graph and profiler panels, the .mindir editor, webview security and "Debug in PyNative",
// in the real workbench. Webview DOM is reached through the driver (protocol.ts queries).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ProfileDocument } from '../../../extension/src/contracts/profileDocument';
import { profileDocument } from '../../unit/fixtures/synthProfile';
import { E2ETest, waitFor } from './harness';
import { showOutputNotebook } from './notebookFiles';
import { exampleFile, repoFile, restoreLayout, waitForElements, webview } from './webview';

async function numbers(title: string, selector: string): Promise<number[]> {
  const a = await webview(title, selector, { kind: 'attribute', name: 'data-value' });
  return (a.values ?? []).map(Number);
}

function isSorted(xs: number[], dir: 'asc' | 'desc'): boolean {
  return xs.every(
    (x, i) => i === 0 || (dir === 'desc' ? (xs[i - 1] ?? x) >= x : (xs[i - 1] ?? x) <= x),
  );
}

/** For the screenshot the harness takes after the test: the panel alone, its graph fitted. */
async function showPanelAlone(title: string): Promise<void> {
  const others = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((tab) => !(tab.input instanceof vscode.TabInputWebview));
  await vscode.window.tabGroups.close(others);
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const theme = vscode.workspace.getConfiguration('workbench');
  await theme.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
  // The theme reaches the webview as a class on its body.
  await waitFor(
    'the dark theme in the panel',
    () => webview(title, 'body.vscode-dark'),
    (a) => a.count === 1,
    10_000,
  ).catch(() => undefined);
}

const MODEL = (): string => exampleFile('cifar_resnet', 'model.py');

export const panelTests: E2ETest[] = [
  {
    name: 'clicking the Show graph CodeLens draws the model graph',
    run: async () => {
      await restoreLayout();
      const doc = await vscode.workspace.openTextDocument(MODEL());
      const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      const line = doc
        .getText()
        .split('\n')
        .findIndex((l) => l.startsWith('class ResNet('));
      assert.ok(line > 0, 'class ResNet in model.py');
      const lenses = await waitFor(
        'MindScope CodeLenses on model.py',
        async () =>
          vscode.commands.executeCommand<vscode.CodeLens[]>(
            'vscode.executeCodeLensProvider',
            doc.uri,
          ),
        (l) => l.filter((x) => x.command?.command === 'mindscope.showGraph').length >= 2,
      );
      const titles = lenses.filter((l) => l.range.start.line === line).map((l) => l.command?.title);
      assert.deepEqual(titles, ['Show graph', 'Profile', 'Debug in PyNative', 'Export…']);
      // Put ResNet's lens on screen (BasicBlock's scrolls away), then click it in the editor.
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
      await waitFor(
        'the CodeLens links in the editor',
        () => webview('model.py', '.codelens-decoration a', { kind: 'count' }, 'workbench'),
        (a) => a.count >= 3,
      );
      await webview(
        'model.py',
        '.codelens-decoration a:text-is("Show graph"):visible',
        { kind: 'click' },
        'workbench',
      );
      const title = 'Graph: ResNet';
      // The compile runs in the user's interpreter: seconds on an idle machine.
      const nodes = await waitForElements(title, 'g.node', 5, 240_000);
      const scopes = await webview(title, 'g.node.scope', { kind: 'attribute', name: 'data-id' });
      assert.ok(
        scopes.values?.includes('Default/layer1-SequentialCell'),
        JSON.stringify(scopes.values),
      );
      // Open layer1: its blocks appear in place of it.
      await webview(title, 'g.node.scope[data-id="Default/layer1-SequentialCell"]', {
        kind: 'dispatch',
        event: 'dblclick',
      });
      await waitForElements(title, 'g.group[data-id="Default/layer1-SequentialCell"]');
      await waitFor(
        'more nodes after expanding',
        () => webview(title, 'g.node'),
        (a) => a.count > nodes,
      );
      // Open the first block, select one of its convolutions and follow its source link.
      await webview(title, 'g.node.scope[data-id="Default/layer1-SequentialCell/0-BasicBlock"]', {
        kind: 'dispatch',
        event: 'dblclick',
      });
      const conv = 'g.node.op:has(text.node-title:text-is("Conv2D"))';
      await waitForElements(title, conv, 3);
      await webview(title, conv, { kind: 'dispatch', event: 'click', nth: 1 });
      await waitForElements(title, '.detail-pane a.source');
      const sources = await webview(title, '.detail-pane a.source .loc', { kind: 'texts' });
      assert.ok(
        sources.values?.some((s) => s?.startsWith('model.py:')),
        JSON.stringify(sources.values),
      );
      await webview(title, '.detail-pane a.source', { kind: 'click' });
      await waitFor(
        'model.py opened at the op line',
        () => vscode.window.activeTextEditor,
        (e) => e?.document.uri.fsPath === MODEL() && e.selection.active.line > 0,
      );
      // For the screenshot: the second block opened (the view zooms to it), a Conv2D selected.
      const block1 = 'Default/layer1-SequentialCell/1-BasicBlock';
      await webview(title, `g.node.scope[data-id="${block1}"]`, {
        kind: 'dispatch',
        event: 'dblclick',
      });
      await waitForElements(title, `g.group[data-id="${block1}"]`);
      await showPanelAlone(title);
      await webview(title, conv, { kind: 'dispatch', event: 'click', nth: 3 });
    },
  },
  {
    name: 'the profiler panel shows the model profile and sorts its table',
    run: async () => {
      await restoreLayout();
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(MODEL()));
      void vscode.commands.executeCommand('mindscope.profile', {
        uri: vscode.Uri.file(MODEL()),
        className: 'ResNet',
      });
      const title = 'Profile: ResNet';
      const rows = await waitForElements(title, 'table.ops tr.op', 10, 240_000);
      assert.ok(rows >= 20, `${rows} op rows`);
      assert.ok(isSorted(await numbers(title, 'td.total'), 'desc'), 'by total time first');
      await webview(title, 'th[data-key="avgMs"]', { kind: 'click' });
      await waitFor(
        'sorted by avg, descending',
        () => numbers(title, 'td.avg'),
        (xs) => xs.length > 0 && isSorted(xs, 'desc') && !isSorted(xs, 'asc'),
      );
      await webview(title, 'th[data-key="avgMs"]', { kind: 'click' });
      await waitFor(
        'sorted by avg, ascending',
        () => numbers(title, 'td.avg'),
        (xs) => xs.length > 0 && isSorted(xs, 'asc') && !isSorted(xs, 'desc'),
      );
      await webview(title, 'th[data-key="calls"]', { kind: 'click' });
      await waitFor(
        'sorted by calls',
        () => numbers(title, 'td.num[data-value]:nth-child(4)'),
        (xs) => isSorted(xs, 'desc'),
      );
      await webview(title, 'th[data-key="totalMs"]', { kind: 'click' });
      assert.equal(await waitForElements(title, 'canvas.timeline-canvas'), 1);
      assert.ok((await webview(title, '.charts svg .bar')).count >= 5, 'per-Cell bars');
      const trace = path.join(
        fs.mkdtempSync(path.join(os.tmpdir(), 'ms-trace-')),
        'resnet.trace.json',
      );
      await vscode.commands.executeCommand('mindscope.exportChromeTrace', vscode.Uri.file(trace));
      const exported = JSON.parse(fs.readFileSync(trace, 'utf8')) as { traceEvents: unknown[] };
      assert.ok(exported.traceEvents.length > 100, `${exported.traceEvents.length} trace events`);
      await showPanelAlone(title);
    },
  },
  {
    name: 'a .mindir file opens as a graph',
    run: async () => {
      await restoreLayout();
      const source = repoFile('tests', 'python', 'runtime', 'fixtures', 'tiny_net.mindir');
      const file = path.join(
        fs.mkdtempSync(path.join(os.tmpdir(), 'ms-mindir-')),
        'tiny_net.mindir',
      );
      fs.copyFileSync(source, file);
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file));
      const title = 'MINDIR: tiny_net.mindir';
      await waitForElements(title, 'g.node', 2, 120_000);
      const facts = await webview(title, 'header .facts', { kind: 'texts' });
      assert.match(facts.values?.[0] ?? '', /capture mindir/);
    },
  },
  {
    name: 'strings from a model are escaped and the webview has a nonce CSP',
    run: async () => {
      await restoreLayout();
      const evil = `<img src=x onerror="document.body.appendChild(document.createElement('pwned-marker'))">`;
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ms-evil-')), 'evil.json');
      fs.writeFileSync(file, JSON.stringify(hostileGraph(evil)));
      await vscode.commands.executeCommand('mindscope.openGraphDocument', file);
      const title = 'Graph: evil.json';
      await waitForElements(title, 'g.node.op');
      const titles = await webview(title, 'text.node-title', { kind: 'texts' });
      assert.ok(titles.values?.includes(evil), JSON.stringify(titles.values));
      assert.equal((await webview(title, 'img')).count, 0, 'no <img> element was created');
      assert.equal((await webview(title, 'pwned-marker')).count, 0, 'no handler ran');
      await webview(title, 'g.node.op', { kind: 'dispatch', event: 'click' });
      await waitForElements(title, '.detail-pane h2');
      assert.equal((await webview(title, 'img, pwned-marker')).count, 0);
      const csp = await webview(title, 'meta[http-equiv="Content-Security-Policy"]', {
        kind: 'attribute',
        name: 'content',
      });
      const policy = csp.values?.[0] ?? '';
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /script-src 'nonce-[A-Za-z0-9]+'/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    },
  },
  {
    name: "bidi controls in a model's strings cannot reorder the graph header or the nodes",
    run: async () => {
      await restoreLayout();
      // U+202E (right-to-left override) would show "model.py:exe.txt" as "model.py:txt.exe".
      const spoof = 'model.py:\u202Eexe.txt\u2066x\u2069';
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ms-bidi-')), 'bidi.json');
      fs.writeFileSync(file, JSON.stringify(hostileGraph(spoof)));
      await vscode.commands.executeCommand('mindscope.openGraphDocument', file);
      const title = 'Graph: bidi.json';
      await waitForElements(title, 'g.node.op');
      const texts = [
        ...((await webview(title, 'header .facts, header .error-banner', { kind: 'texts' }))
          .values ?? []),
        ...((await webview(title, 'text.node-title', { kind: 'texts' })).values ?? []),
      ];
      assert.ok(texts.length >= 3, JSON.stringify(texts));
      assert.ok(texts[0]?.startsWith('model.py:exe.txtx'), JSON.stringify(texts[0]));
      for (const text of texts) {
        assert.doesNotMatch(text ?? '', /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
      }
      await webview(title, 'g.node.op', { kind: 'dispatch', event: 'click' });
      await waitForElements(title, '.detail-pane h2');
      const detail = await webview(title, '.detail-pane', { kind: 'texts' });
      assert.ok(detail.values?.[0]?.includes('model.py:exe.txtx'), JSON.stringify(detail));
      assert.doesNotMatch(detail.values?.[0] ?? '', /[\u202A-\u202E\u2066-\u2069]/);
    },
  },
  {
    name: 'a notebook output of the graph MIME type renders with the graph view',
    run: async () => {
      await restoreLayout();
      // A notebook as the kernel's %ms_graph leaves it: a display_data output of our MIME type.
      await showOutputNotebook({
        id: 'graph',
        source: '%ms_graph Net',
        mime: 'application/vnd.mindscope.graph+json',
        data: hostileGraph('NotebookConv2D'),
        text: 'MindScope graph',
      });
      await waitForElements('', '.mindscope-output g.node.op', 2, 90_000);
      const titles = await webview('', '.mindscope-output text.node-title', { kind: 'texts' });
      assert.ok(titles.values?.includes('NotebookConv2D'), JSON.stringify(titles.values));
    },
  },
  {
    name: 'a notebook output of the profile MIME type renders with the profile view',
    run: async () => {
      await restoreLayout();
      const evil = `<img src=x onerror="document.body.appendChild(document.createElement('pwned-marker'))">`;
      await showOutputNotebook({
        id: 'profile',
        source: '%ms_profile Net',
        mime: 'application/vnd.mindscope.profile+json',
        data: smallProfile(['NotebookMatMul', evil]),
        text: 'MindScope profile',
      });
      const rows = '.mindscope-output table.ops tr.op';
      assert.equal(await waitForElements('', rows, 2, 90_000), 2);
      const names = await webview('', `${rows} td:first-child`, { kind: 'texts' });
      assert.deepEqual([...(names.values ?? [])].sort(), [evil, 'NotebookMatMul'].sort());
      assert.equal(await waitForElements('', '.mindscope-output canvas.timeline-canvas'), 1);
      const facts = await webview('', '.mindscope-output header .facts', { kind: 'texts' });
      assert.match(facts.values?.[0] ?? '', /nb\.py:Net · GRAPH_MODE · 2 forward steps/);
      assert.ok((await webview('', '.mindscope-output .charts svg .bar')).count >= 1, 'Cell bars');
      assert.equal((await webview('', '.mindscope-output img, pwned-marker')).count, 0);
    },
  },
  {
    name: 'Debug in PyNative stops at a breakpoint in construct of the GRAPH_MODE script',
    run: async () => {
      await restoreLayout();
      const model = vscode.Uri.file(MODEL());
      const text = fs.readFileSync(model.fsPath, 'utf8').split('\n');
      const line = text.findIndex((l) => l.trim() === 'identity = x');
      assert.ok(line > 0);
      const breakpoint = new vscode.SourceBreakpoint(
        new vscode.Location(model, new vscode.Position(line, 0)),
      );
      vscode.debug.addBreakpoints([breakpoint]);
      const stops: { threadId: number }[] = [];
      const tracker = vscode.debug.registerDebugAdapterTrackerFactory('mindscope', {
        createDebugAdapterTracker: () => ({
          onDidSendMessage: (m: {
            type?: string;
            event?: string;
            body?: { threadId?: number };
          }) => {
            if (m.type === 'event' && m.event === 'stopped')
              stops.push({ threadId: m.body?.threadId ?? 0 });
          },
        }),
      });
      try {
        const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
          type: 'mindscope',
          request: 'launch',
          name: 'e2e: train.py in PyNative',
          program: exampleFile('cifar_resnet', 'train.py'),
          args: ['--steps', '1', '--batch-size', '2'],
        });
        assert.ok(started, 'the debug session started');
        const stop = await waitFor(
          'a stopped event',
          () => stops[0],
          (s) => s !== undefined,
          240_000,
        );
        const session = vscode.debug.activeDebugSession;
        assert.ok(session && stop);
        const trace = (await session.customRequest('stackTrace', { threadId: stop.threadId })) as {
          stackFrames: { line: number; name: string; source?: { path?: string } }[];
        };
        const top = trace.stackFrames[0];
        // The workbench hands remote sources back as vscode-remote:// URIs.
        assert.ok(top, 'a stack frame');
        const where = top.source?.path ?? '';
        assert.ok(where === model.fsPath || where.endsWith(model.fsPath), where);
        assert.equal(top.line, line + 1);
        assert.equal(top.name, 'construct');
        const mode = (await session.customRequest('evaluate', {
          expression: "__import__('mindspore').get_context('mode')",
          frameId: (trace.stackFrames[0] as unknown as { id: number }).id,
          context: 'repl',
        })) as { result: string };
        assert.equal(mode.result, '1', 'PYNATIVE_MODE while the script asked for GRAPH_MODE');
        const ended = new Promise<void>((resolve) => {
          const sub = vscode.debug.onDidTerminateDebugSession(() => {
            sub.dispose();
            resolve();
          });
        });
        await vscode.debug.stopDebugging(session);
        await ended;
      } finally {
        tracker.dispose();
        vscode.debug.removeBreakpoints([breakpoint]);
      }
    },
  },
];

/** A graph document whose every string is an attack. */
function hostileGraph(evil: string): unknown {
  const loc = {
    file: `/tmp/${evil}.py`,
    line: 1,
    endLine: 1,
    column: 0,
    endColumn: 1,
    code: evil,
    framework: false,
  };
  const node = (id: string, inputs: unknown[]) => ({
    id,
    graph: 'g',
    opType: evil,
    primitive: evil,
    name: evil,
    fullName: `Default/${evil}`,
    scope: 'Default',
    category: 'compute',
    inputs,
    outputs: [{ type: 'tensor', dtype: evil, shape: [1, 2] }],
    attrs: { [evil]: evil },
    source: [loc],
    userSource: loc,
    frameworkSource: null,
  });
  return {
    kind: 'mindscope.graph',
    version: 1,
    meta: {
      mindsporeVersion: evil,
      mode: 'GRAPH_MODE',
      syntaxLevel: evil,
      capture: 'ir-dump',
      target: evil,
      device: 'CPU',
      inputs: [],
      counts: { nodes: 2, computeOps: 2, edges: 1, graphs: 1, parameters: 1, parameterElements: 2 },
    },
    error: { kind: 'compile-failed', type: evil, message: evil, file: evil, line: 1 },
    graphs: [],
    nodes: [
      node('0:%1', [{ kind: 'param', ref: '%x', shape: [1, 2], dtype: evil }]),
      node('0:%2', [{ kind: 'node', ref: '0:%1' }]),
    ],
    edges: [
      { from: '%x', to: '0:%1', toInput: 0, kind: 'data' },
      { from: '0:%1', to: '0:%2', toInput: 0, kind: 'data' },
    ],
    parameters: [
      { id: '%x', name: evil, kind: 'input', dtype: evil, shape: [1, 2], size: 2, graph: null },
    ],
    scopes: [
      {
        path: 'Default',
        name: evil,
        cellType: evil,
        attrPath: '',
        opCount: 2,
        totalOpCount: 2,
        paramCount: 0,
        paramTensors: 0,
        children: [],
      },
    ],
    patterns: [{ id: 'p', kind: evil, nodes: ['0:%1'], scope: 'Default' }],
  };
}

/** A two-step profile document of the given ops (one call of each per step). */
function smallProfile(ops: string[]): ProfileDocument {
  const rows = ops.map((name, i) => ({
    name,
    fullName: `Default/${name}-op${i}`,
    type: name,
    scope: 'Default',
    scopeSource: 'mindspore' as const,
    calls: 2,
    totalMs: 2 * (i + 1),
    avgMs: i + 1,
    share: (i + 1) / 3,
  }));
  const events = rows.flatMap((r, i) =>
    [0, 1].map((step) => ({
      ph: 'X' as const,
      name: r.fullName,
      pid: 1,
      tid: 1,
      ts: step * 10_000 + i * 2_000,
      dur: (i + 1) * 1_000,
    })),
  );
  return profileDocument(
    { target: 'nb.py:Net', steps: 2 },
    {
      ops: rows,
      byType: rows.map((r) => ({
        type: r.type,
        calls: 2,
        totalMs: r.totalMs,
        avgMs: r.avgMs,
        share: r.share,
      })),
      byCell: [
        { scope: 'Default', selfMs: 0, totalMs: 6, calls: 2, ops: rows.length, share: 1 },
        {
          scope: 'Default/dense-Dense',
          selfMs: 6,
          totalMs: 6,
          calls: 2,
          ops: rows.length,
          share: 1,
        },
      ],
      steps: [0, 1].map((index) => ({
        index,
        startNs: index * 10_000_000,
        wallMs: 4,
        opMs: 3,
        opCount: rows.length,
      })),
      totals: { opMs: 6, meanStepMs: 4, steps: 2, opRows: rows.length },
      timeline: { unit: 'us', events },
    },
  );
}

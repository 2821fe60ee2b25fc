// Workspace trust: in Restricted Mode nothing that runs the user's code is offered or runs
// (Show graph, Profile, Debug in PyNative), while the static features keep working. The
// untrusted tests run in a workbench launched with trust on and the folder not trusted
// (launches.ts); the trusted counterpart runs in the main launch, so each assertion is seen
// both ways.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SHADOWS, UNTRUSTED_TESTS } from '../launches';
import { E2E_ENV } from '../protocol';
import { E2ETest, env, waitFor } from './harness';
import {
  exampleFile,
  restoreLayout,
  serverRunning,
  waitForElements,
  webview,
  workbench,
} from './webview';

const RUNS_CODE = [
  'Show Graph of Cell',
  'Profile Cell',
  'Profile Distributed',
  'Debug in PyNative',
  'Export, Verify and Quantize Model',
];
const ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';

function model(): vscode.Uri {
  return vscode.Uri.file(exampleFile('cifar_resnet', 'model.py'));
}

/** Opens model.py with the cursor on the line that starts `text`. */
async function openModelAt(text: string): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(model());
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith(text));
  assert.ok(line >= 0, text);
  const at = new vscode.Position(line + 1, 4);
  editor.selection = new vscode.Selection(at, at);
  return editor;
}

/** The MindScope commands the palette offers with model.py open, as the user sees them. */
async function paletteCommands(): Promise<string[]> {
  await openModelAt('class ResNet(');
  void vscode.commands.executeCommand('workbench.action.quickOpen', '>MindScope: ');
  try {
    // Restart Server is offered in both states: once it is listed, the list is complete.
    const rows = await waitFor(
      'the MindScope commands in the palette',
      () => workbench(ROWS, { kind: 'texts' }),
      (a) => (a.values ?? []).some((v) => v?.includes('MindScope: Restart Server')),
    );
    return (rows.values ?? []).map((v) => v ?? '');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
}

/** Looks in the notification center: a toast hides itself after a while, the center keeps it. */
async function notificationsSay(text: string): Promise<void> {
  await waitFor(
    `a notification saying "${text}"`,
    async () => {
      await vscode.commands.executeCommand('notifications.showList');
      return workbench('.notifications-center .notification-list-item-message', { kind: 'texts' });
    },
    (a) => (a.values ?? []).some((v) => v?.includes(text)),
  );
  await vscode.commands.executeCommand('notifications.hideList');
}

export const trustedTests: E2ETest[] = [
  {
    name: 'trusted: the commands that run code are in the palette',
    run: async () => {
      await restoreLayout();
      assert.equal(vscode.workspace.isTrusted, true);
      const offered = (await paletteCommands()).join('\n');
      for (const title of RUNS_CODE) assert.ok(offered.includes(`MindScope: ${title}`), offered);
    },
  },
];

export const untrustedTests: E2ETest[] = [
  {
    name: UNTRUSTED_TESTS.restricted,
    run: async () => {
      assert.equal(
        vscode.workspace.isTrusted,
        false,
        'the launch should leave the folder untrusted',
      );
      await serverRunning();
      await restoreLayout();
      await vscode.window.showTextDocument(model());
      await workbench('.statusbar-item', { kind: 'texts' }).then((a) =>
        assert.ok(
          (a.values ?? []).some((v) => v?.includes('Restricted Mode')),
          JSON.stringify(a.values),
        ),
      );
      // Static analysis runs nothing: the language server and the mode item still work.
      const api = await serverRunning();
      await waitFor(
        'the mode status item',
        () => api.fileModeStatus,
        (s) => s.visible && s.text === '$(circuit-board) PyNative',
        60_000,
      );
    },
  },
  {
    name: UNTRUSTED_TESTS.commands,
    run: async () => {
      await restoreLayout();
      const offered = await paletteCommands();
      for (const title of RUNS_CODE) {
        assert.ok(!offered.some((o) => o.includes(`MindScope: ${title}`)), offered.join('\n'));
      }
      // Run anyway (a keybinding or another extension can): each refuses, and says why. The
      // toasts are cleared before each one: VS Code hides older toasts as new ones arrive.
      await vscode.commands.executeCommand('notifications.clearAll');
      const target = { uri: model(), className: 'ResNet' };
      await vscode.commands.executeCommand('mindscope.showGraph', target);
      await notificationsSay('Show graph runs your code; it is disabled until you trust');
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('mindscope.profile', target);
      await notificationsSay('Profile runs your code');
      await vscode.commands.executeCommand('notifications.clearAll');
      const script = vscode.Uri.file(exampleFile('distributed', 'train_dp.py'));
      await vscode.commands.executeCommand('mindscope.profileDistributed', {
        uri: script,
        workers: 2,
        scriptArgs: [],
      });
      await notificationsSay('Profile distributed runs your code');
      await vscode.commands.executeCommand('notifications.clearAll');
      const debugged = await vscode.commands.executeCommand<boolean>(
        'mindscope.debugPyNative',
        model(),
      );
      assert.equal(debugged, false);
      await notificationsSay('Debug in PyNative runs your code');
      // (vscode.debug.startDebugging itself asks VS Code's trust dialog first: not ours to test.)
      assert.equal(vscode.debug.activeDebugSession, undefined);
      const panels = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputWebview);
      assert.deepEqual(
        panels.map((t) => t.label),
        [],
      );
      await vscode.commands.executeCommand('notifications.clearAll');
    },
  },
  {
    name: UNTRUSTED_TESTS.shadows,
    run: async () => {
      await restoreLayout();
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
      for (const file of SHADOWS.files) {
        assert.ok(fs.existsSync(path.join(folder, file)), `the driver put ${file} in ${folder}`);
      }
      const markers = path.join(env(E2E_ENV.results), SHADOWS.markers);
      const ran = (): string[] => fs.readdirSync(markers);
      // The server was started at activation in this folder; start it once more to be sure.
      await vscode.commands.executeCommand('mindscope.restartServer');
      const api = await serverRunning();
      await vscode.window.showTextDocument(model());
      await waitFor(
        'the mode status item (the server answers)',
        () => api.fileModeStatus,
        (s) => s.visible && s.text === '$(circuit-board) PyNative',
        60_000,
      );
      // The .mindir editor runs the runtime's decoder even here: beside the shadows, it renders.
      const mindir = vscode.Uri.file(path.join(folder, SHADOWS.mindir));
      await vscode.commands.executeCommand('vscode.open', mindir);
      await waitForElements(`MINDIR: ${SHADOWS.mindir}`, 'g.node', 2, 120_000);
      assert.deepEqual(ran(), [], 'modules from the untrusted folder were imported');
    },
  },
  {
    name: UNTRUSTED_TESTS.codeLens,
    run: async () => {
      await restoreLayout();
      const editor = await openModelAt('class ResNet(');
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        editor.document.uri,
      );
      const ours = lenses.filter((l) => l.command?.command.startsWith('mindscope.'));
      assert.deepEqual(
        ours.map((l) => l.command?.title),
        [],
      );
    },
  },
  {
    name: UNTRUSTED_TESTS.sidebar,
    run: async () => {
      await restoreLayout();
      await vscode.commands.executeCommand('workbench.view.extension.mindscope');
      await openModelAt('class ResNet(');
      const title = 'MindScope';
      await waitFor(
        'the side panel on Cell ResNet',
        () => webview(title, '.mindscope-sidebar h3', { kind: 'texts' }),
        (a) => (a.values ?? []).includes('Cell ResNet'),
      );
      assert.equal(
        await waitForElements(title, '.mindscope-sidebar .actions button[disabled]', 3),
        3,
      );
      const hints = await webview(title, '.mindscope-sidebar .hint', { kind: 'texts' });
      assert.ok(
        hints.values?.includes('Trust this workspace to run your code.'),
        JSON.stringify(hints),
      );
    },
  },
];

// The MindScope side panel (activity bar → Runs and profile): the recent runs, the latest
// profile at a glance, the Cell actions, and reopening a run.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ProfileDocument } from '../../../extension/src/contracts/profileDocument';
import { formatMs } from '../../../extension/webview/common/format';
import { E2E_ENV } from '../protocol';
import { E2ETest, env, waitFor } from './harness';
import { scalarRecord } from './summaryRecords';
import { exampleFile, restoreLayout, serverRunning, waitForElements, webview } from './webview';

const TITLE = 'MindScope';
const PANEL = '.mindscope-sidebar';

/** Puts the cursor inside class ResNet of the example model. */
async function cursorInResNet(): Promise<vscode.Uri> {
  const model = vscode.Uri.file(exampleFile('cifar_resnet', 'model.py'));
  const editor = await vscode.window.showTextDocument(model);
  const line = editor.document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('class ResNet('));
  assert.ok(line > 0);
  const at = new vscode.Position(line + 1, 4);
  editor.selection = new vscode.Selection(at, at);
  return model;
}

export const sidePanelTests: E2ETest[] = [
  {
    name: 'the side panel lists the latest run and summarises its profile',
    run: async () => {
      await serverRunning();
      await restoreLayout();
      const model = await cursorInResNet();
      await vscode.commands.executeCommand('workbench.view.extension.mindscope');
      await waitFor(
        'the side panel on Cell ResNet',
        () => webview(TITLE, `${PANEL} h3`, { kind: 'texts' }),
        (a) => (a.values ?? []).includes('Cell ResNet'),
      );
      const buttons = await webview(TITLE, `${PANEL} .actions button:not([disabled])`, {
        kind: 'texts',
      });
      assert.deepEqual(buttons.values, ['Show graph', 'Profile', 'Debug in PyNative']);
      // The profiler panel test leaves a run; run alone (MINDSCOPE_E2E_GREP), make one.
      if ((await webview(TITLE, `${PANEL} li.run.profile`)).count === 0) {
        await vscode.commands.executeCommand('mindscope.profile', {
          uri: model,
          className: 'ResNet',
        });
      }
      await waitForElements(TITLE, `${PANEL} li.run.profile`, 1, 240_000);
      const files = await webview(TITLE, `${PANEL} li.run.profile`, {
        kind: 'attribute',
        name: 'title',
      });
      const file = files.values?.[0] ?? '';
      assert.ok(fs.existsSync(file), `the run's document ${file}`);
      const names = await webview(TITLE, `${PANEL} li.run.profile .name`, { kind: 'texts' });
      assert.equal(names.values?.[0], 'model.py:ResNet');

      // The summary is the latest profile's: compare with the document itself.
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as ProfileDocument;
      const big = await waitFor(
        'the latest profile summary',
        () => webview(TITLE, `${PANEL} section.profile .big`, { kind: 'texts' }),
        (a) => a.count === 1,
      );
      const expected = `${formatMs(doc.totals.meanStepMs)} / step`;
      assert.ok(big.values?.[0]?.startsWith(expected), `${String(big.values?.[0])} ≠ ${expected}…`);
      const target = await webview(TITLE, `${PANEL} section.profile .target`, { kind: 'texts' });
      assert.equal(target.values?.[0], doc.meta.target);
      const top = [...doc.byType].sort((a, b) => b.totalMs - a.totalMs)[0];
      const labels = await webview(TITLE, `${PANEL} section.profile .bar .label`, {
        kind: 'texts',
      });
      assert.equal(labels.values?.[0], top?.type);

      // A click on the run reopens its profile.
      await webview(TITLE, `${PANEL} li.run.profile`, { kind: 'click' });
      await waitForElements(`Profile: ${path.basename(file)}`, 'table.ops tr.op', 1, 60_000);
    },
  },
  {
    name: 'the side panel lists training runs; a click opens the dashboard, Compare opens two',
    run: async () => {
      await restoreLayout();
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
      const root = path.join(folder, 'e2e_summaries');
      const fixture = path.join(env(E2E_ENV.repo), 'tests/python/summary/fixtures/record_run');
      for (const run of ['run_a', 'run_b']) {
        fs.cpSync(fixture, path.join(root, run), { recursive: true });
      }
      try {
        await vscode.commands.executeCommand('workbench.view.extension.mindscope');
        // The watcher sees the new summary files; each run shows its latest loss (0.8056 at
        // step 5 of what MindSpore recorded) and a sparkline.
        await waitFor(
          'the training runs in the side panel',
          () => webview(TITLE, `${PANEL} li.training-run .name`, { kind: 'texts' }),
          (a) => ['run_a', 'run_b'].every((r) => (a.values ?? []).includes(`e2e_summaries/${r}`)),
          60_000,
        );
        for (const run of ['run_a', 'run_b']) {
          const row = `${PANEL} li.training-run[data-run="e2e_summaries/${run}"]`;
          const latest = await webview(TITLE, `${row} .latest`, { kind: 'texts' });
          assert.deepEqual(latest.values, ['loss 0.8056'], run);
          assert.equal((await webview(TITLE, `${row} svg.sparkline`)).count, 1, run);
        }
        // A step appended while the panel follows the run arrives without a re-read.
        const file = fs.readdirSync(path.join(root, 'run_a'))[0] ?? '';
        fs.appendFileSync(path.join(root, 'run_a', file), scalarRecord(6, 'loss', 0.5));
        await waitFor(
          'the appended loss in the side panel',
          () =>
            webview(TITLE, `${PANEL} li.training-run[data-run="e2e_summaries/run_a"] .latest`, {
              kind: 'texts',
            }),
          (a) => a.values?.[0] === 'loss 0.5',
          30_000,
        );

        const title = `Training: ${path.basename(folder)}`;
        const series = `.chart[data-tag="loss"] li.series`;
        await webview(TITLE, `${PANEL} li.training-run[data-run="e2e_summaries/run_a"] .name`, {
          kind: 'click',
        });
        await waitForElements(title, `${series}[data-run="e2e_summaries/run_a"]`);
        assert.equal((await webview(title, series)).count, 1, 'only the clicked run is shown');

        for (const run of ['run_a', 'run_b']) {
          const pick = `${PANEL} input.training-pick[data-run="e2e_summaries/${run}"]`;
          await webview(TITLE, pick, { kind: 'click' });
        }
        await webview(TITLE, `${PANEL} button.compare:not([disabled])`, { kind: 'click' });
        await waitForElements(title, `${series}[data-run="e2e_summaries/run_b"][data-points="5"]`);
        await waitForElements(title, `${series}[data-run="e2e_summaries/run_a"][data-points="6"]`);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'the example training: its loss shows live in Training runs, then its recorded graph',
    run: async () => {
      await restoreLayout();
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
      const root = path.join(folder, 'e2e_training');
      const script = exampleFile('cifar_resnet', 'train.py');
      const args = [script, '--steps', '4', '--batch-size', '2', '--step-delay', '1'];
      const training = spawn(
        env(E2E_ENV.python),
        [...args, '--summary-dir', path.join(root, 'live')],
        {
          cwd: path.dirname(script),
          stdio: 'ignore',
        },
      );
      try {
        await vscode.commands.executeCommand('workbench.view.extension.mindscope');
        const row = `${PANEL} li.training-run[data-run="e2e_training/live"]`;
        // MindSpore compiles the step, then writes one loss per step: the row follows them.
        const first = await waitFor(
          'the training run in the side panel',
          () => webview(TITLE, `${row} .latest`, { kind: 'texts' }),
          (a) => (a.values?.[0] ?? '').startsWith('loss '),
          240_000,
        );
        await webview(TITLE, `${row} .name`, { kind: 'click' });
        const title = `Training: ${path.basename(folder)}`;
        const series = `.chart[data-tag="loss"] li.series[data-run="e2e_training/live"]`;
        await waitForElements(title, `${series}[data-points="4"]`, 1, 240_000);
        const last = await webview(TITLE, `${row} .latest`, { kind: 'texts' });
        assert.notDeepEqual(last.values, first.values, 'the latest loss moved on');
        // The compiled training step was recorded: the dashboard opens it in the graph panel.
        await webview(title, 'button.open-graph[data-run="e2e_training/live"]', { kind: 'click' });
        await waitForElements('Graph: e2e_training/live', 'g.node', 1, 120_000);
      } finally {
        training.kill();
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  },
];

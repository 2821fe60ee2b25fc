// "Profile distributed" on the data-parallel example, in the real workbench: msrun runs two
// CPU ranks with the Profiler on in each, and the merged profile opens with one lane per rank.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { E2ETest, waitFor } from './harness';
import { exampleFile, restoreLayout, waitForElements, webview } from './webview';

const SCRIPT = (): string => exampleFile('distributed', 'train_dp.py');

export const distributedTests: E2ETest[] = [
  {
    name: 'Profile distributed runs the example on 2 ranks and shows both lanes and the per-rank chart',
    run: async () => {
      await restoreLayout();
      const doc = await vscode.workspace.openTextDocument(SCRIPT());
      await vscode.window.showTextDocument(doc);
      const lenses = await waitFor(
        'the Profile distributed CodeLens on train_dp.py',
        async () =>
          vscode.commands.executeCommand<vscode.CodeLens[]>(
            'vscode.executeCodeLensProvider',
            doc.uri,
          ),
        (l) => l.some((x) => x.command?.command === 'mindscope.profileDistributed'),
      );
      const lens = lenses.find((l) => l.command?.command === 'mindscope.profileDistributed');
      assert.match(doc.lineAt(lens?.range.start.line ?? 0).text, /\binit\(\)/);
      // The worker count and script arguments the command would ask for, given up front.
      void vscode.commands.executeCommand('mindscope.profileDistributed', {
        uri: doc.uri,
        workers: 2,
        scriptArgs: ['--steps', '3', '--blocks', '1', '--batch-size', '4'],
      });
      const title = 'Profile: train_dp.py (2 ranks)';
      // Two ranks start MindSpore, build the cluster and compile: a minute or more on 2 cores.
      await waitForElements(title, '.rank-step-chart rect.rank-bar', 4, 300_000);
      const lanes = await webview(title, 'canvas.timeline-canvas', {
        kind: 'attribute',
        name: 'aria-label',
      });
      const label = lanes.values?.[0] ?? '';
      assert.match(label, /rank 0 · CPU ops/);
      assert.match(label, /rank 1 · CPU ops/);
      assert.equal((await webview(title, '.rank-breakdown-chart .rank-row')).count, 2);
      assert.equal((await webview(title, '.rank-step-chart rect.straggler')).count >= 1, true);
      const options = await webview(title, 'select.rank-filter option', { kind: 'texts' });
      assert.deepEqual(options.values, ['All ranks', 'Rank 0', 'Rank 1']);
      const facts = await webview(title, 'header .facts', { kind: 'texts' });
      assert.match(facts.values?.[0] ?? '', /2 ranks/);
      // For the screenshot: the panel alone.
      const others = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((tab) => !(tab.input instanceof vscode.TabInputWebview));
      await vscode.window.tabGroups.close(others);
    },
  },
];

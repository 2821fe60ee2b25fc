// The training dashboard in the real workbench: a summary real MindSpore 2.10 wrote, a point
// arriving while a writer appends, hostile tag names, and the recorded graph.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { E2E_ENV } from '../protocol';
import { E2ETest, env } from './harness';
import { scalarRecord } from './summaryRecords';
import { restoreLayout, waitForElements, webview } from './webview';

export const summaryTests: E2ETest[] = [
  {
    name: 'the training dashboard: real summary, live point, escaped tags, recorded graph',
    run: async () => {
      await restoreLayout();
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ms-summaries-'));
      const fixture = path.join(env(E2E_ENV.repo), 'tests/python/summary/fixtures/record_run');
      fs.cpSync(fixture, path.join(root, 'exp1'), { recursive: true });
      const evil = `<img src=x onerror="document.body.appendChild(document.createElement('pwned-marker'))">`;
      fs.mkdirSync(path.join(root, 'live'));
      const live = path.join(root, 'live', 'events.out.events.summary.1.0.host_MS');
      fs.writeFileSync(live, Buffer.concat([scalarRecord(1, 'loss', 2), scalarRecord(1, evil, 1)]));
      await vscode.commands.executeCommand('mindscope.openSummary', root);
      const title = `Training: ${path.basename(root)}`;
      // The file MindSpore wrote holds 5 losses (steps 1 and 2 share an event).
      await waitForElements(
        title,
        '.chart[data-tag="loss"] li.series[data-run="exp1"][data-points="5"]',
      );
      await waitForElements(
        title,
        '.chart[data-tag="loss"] li.series[data-run="live"][data-points="1"]',
      );
      fs.appendFileSync(live, scalarRecord(2, 'loss', 1.5));
      await waitForElements(
        title,
        '.chart[data-tag="loss"] li.series[data-run="live"][data-points="2"]',
        1,
        20_000,
      );
      const heads = await webview(title, '.chart h4', { kind: 'texts' });
      assert.ok(heads.values?.includes(evil), JSON.stringify(heads.values));
      assert.equal((await webview(title, 'img, pwned-marker')).count, 0, 'no element from a tag');
      // The other views, on what MindSpore recorded: 5 steps of a weight histogram, an 8×6
      // input image, and activations whose step 3 holds a NaN and an Inf.
      await webview(title, 'button.tab[data-tab="histograms"]', { kind: 'click' });
      const ridges = '.histogram-chart[data-tag="dense.weight"][data-run="exp1"] polyline';
      await waitForElements(title, ridges, 5);
      const steps = await webview(title, ridges, { kind: 'attribute', name: 'data-step' });
      assert.deepEqual(steps.values, ['2', '2', '3', '4', '5']);
      await webview(title, 'button.tab[data-tab="images"]', { kind: 'click' });
      await waitForElements(title, '.image-viewer[data-tag="input"][data-images="5"]');
      const src = await webview(title, '.image-viewer[data-run="exp1"] img', {
        kind: 'attribute',
        name: 'src',
      });
      assert.match(String(src.values?.[0]), /^data:image\/png;base64,iVBOR/);
      const label = await webview(title, '.image-viewer[data-run="exp1"] .step-label', {
        kind: 'texts',
      });
      assert.deepEqual(label.values, ['step 5 · 8×6']);
      await webview(title, 'button.tab[data-tab="tensors"]', { kind: 'click' });
      await waitForElements(title, '.tensor-stats[data-tag="activations"] tbody tr', 5);
      const flagged = await webview(title, '.tensor-stats tr.nonfinite td', { kind: 'texts' });
      const cells = flagged.values ?? [];
      assert.deepEqual(cells.slice(0, 3), ['3', '[2, 3]', 'float32']);
      assert.deepEqual(cells.slice(-2), ['1', '1'], 'one NaN, one Inf');
      await webview(title, 'button.tab[data-tab="scalars"]', { kind: 'click' });
      await webview(title, 'button.open-graph[data-run="exp1"]', { kind: 'click' });
      await waitForElements('Graph: exp1', 'g.node', 1, 120_000);
    },
  },
];

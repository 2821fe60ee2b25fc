// The summary runs of the workspace for the side panel: one `summary FOLDER --tag *loss*` read
// per workspace folder that holds summary files, again when such a file changes (debounced).
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TrainingRunItem, TrainingRuns } from '../contracts/sidebar';
import type { SummaryDocument } from '../contracts/summaryDocument';
import { getLog } from '../logging';
import { execPythonChild } from '../python/spawn';
import { describeError, parseStatus, RUNTIME_MODULE } from '../runtime/cli';
import { runtimeEnv } from '../runtime/env';
import { interpreterFor } from '../runtime/runner';
import { LOSS_TAG_GLOBS, trainingItems } from './trainingItems';

export const SUMMARY_GLOB = '**/events.out.events.summary.*';

export class WorkspaceTrainingRuns implements vscode.Disposable {
  private state: TrainingRuns = { items: [], reading: false };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly extensionPath: string) {
    const watcher = vscode.workspace.createFileSystemWatcher(SUMMARY_GLOB);
    const later = (): void => this.refreshSoon();
    this.disposables.push(
      watcher,
      watcher.onDidCreate(later),
      watcher.onDidChange(later),
      watcher.onDidDelete(later),
    );
  }

  get current(): TrainingRuns {
    return this.state;
  }

  refreshSoon(delayMs = 1500): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delayMs);
  }

  async refresh(): Promise<TrainingRuns> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const found = await vscode.workspace.findFiles(SUMMARY_GLOB, '**/node_modules/**', 1);
    if (!found.length) {
      this.set({ items: [], reading: false });
      return this.state;
    }
    this.set({ ...this.state, reading: true });
    const items: TrainingRunItem[] = [];
    let error: string | undefined;
    for (const folder of folders) {
      try {
        items.push(...trainingItems(await this.read(folder.uri.fsPath)));
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    this.set({ items, reading: false, error: items.length ? undefined : error });
    return this.state;
  }

  private set(state: TrainingRuns): void {
    this.state = state;
    this.changed.fire();
  }

  private async read(folder: string): Promise<SummaryDocument> {
    const python = await interpreterFor(vscode.Uri.file(folder));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mindscope-training-runs-'));
    const output = path.join(dir, 'summary.json');
    const args = ['summary', folder, '-o', output, '--quiet'];
    for (const glob of LOSS_TAG_GLOBS) args.push('--tag', glob);
    try {
      const { stdout } = await execPythonChild(
        {
          python,
          extensionPath: this.extensionPath,
          module: RUNTIME_MODULE,
          args,
          env: runtimeEnv(this.extensionPath, process.env),
          role: 'static', // the reader imports no user code (docs/security.md)
        },
        { maxBuffer: 1 << 20 },
      );
      const status = parseStatus(stdout);
      if (!status?.ok) {
        if (status?.error?.kind === 'no-summaries') return emptyDocument(folder);
        throw new Error(status?.error ? describeError(status.error) : 'the runtime gave no status');
      }
      return JSON.parse(await fs.readFile(output, 'utf8')) as SummaryDocument;
    } catch (e) {
      getLog().info(`training runs: ${folder}: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.changed.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function emptyDocument(root: string): SummaryDocument {
  const counts = { runs: 0, files: 0, events: 0, scalarPoints: 0, issues: 0 };
  return { kind: 'mindscope.summary', version: 1, runs: [], issues: [],
    meta: { root, createdAt: '', incremental: false, tags: [], crc32c: 'python', counts } }; // prettier-ignore
}

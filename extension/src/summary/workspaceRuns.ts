// The summary runs of the workspace for the side panel: one long-lived
// `summary FOLDER --follow --tag *loss*` child per workspace folder that holds summary files.
// The child reads only the bytes appended since its last poll, so a training that writes a
// 100 MB file costs the side panel nothing per step; the watcher only starts and stops children.
import * as vscode from 'vscode';
import type { TrainingRunItem, TrainingRuns } from '../contracts/sidebar';
import type { SummaryDocument } from '../contracts/summaryDocument';
import { getLog } from '../logging';
import { interpreterFor } from '../runtime/runner';
import { SummaryFollower } from './follower';
import { mergeSummary } from './merge';
import { LOSS_TAG_GLOBS, trainingItems } from './trainingItems';

export const SUMMARY_GLOB = '**/events.out.events.summary.*';
/** Seconds between the side panel's polls of the summary files' sizes. */
const POLL_SECONDS = 1;

interface FolderRuns {
  follower?: SummaryFollower;
  doc?: SummaryDocument;
  error?: string;
}

export class WorkspaceTrainingRuns implements vscode.Disposable {
  private state: TrainingRuns = { items: [], reading: false };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly folders = new Map<string, FolderRuns>();
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly extensionPath: string) {
    const watcher = vscode.workspace.createFileSystemWatcher(SUMMARY_GLOB);
    this.disposables.push(
      watcher,
      // A new run in a followed folder is found by its child; a first one needs a child.
      watcher.onDidCreate(() => this.refreshSoon()),
      // The child keeps what it read: a deleted run leaves only when it starts again.
      watcher.onDidDelete(() => this.refreshSoon(1500, true)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refreshSoon(0)),
    );
  }

  get current(): TrainingRuns {
    return this.state;
  }

  refreshSoon(delayMs = 1500, restart = false): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(restart), delayMs);
  }

  /** Follows every workspace folder holding summary files, and stops following the others. */
  async refresh(restart = false): Promise<TrainingRuns> {
    const wanted = new Set<string>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const pattern = new vscode.RelativePattern(folder, SUMMARY_GLOB);
      const found = await vscode.workspace.findFiles(pattern, '**/node_modules/**', 1);
      if (found.length) wanted.add(folder.uri.fsPath);
    }
    for (const [root, runs] of this.folders) {
      if (restart || !wanted.has(root) || (runs.error && !runs.follower?.running)) {
        runs.follower?.dispose();
        this.folders.delete(root);
      }
    }
    for (const root of wanted) if (!this.folders.has(root)) await this.follow(root);
    this.publish();
    return this.state;
  }

  private async follow(root: string): Promise<void> {
    const runs: FolderRuns = {};
    this.folders.set(root, runs);
    try {
      const python = await interpreterFor(vscode.Uri.file(root));
      const handlers = {
        document: (doc: SummaryDocument): void => {
          if (runs.doc && doc.meta.incremental) mergeSummary(runs.doc, doc);
          else runs.doc = doc;
          runs.error = undefined;
          this.publish();
        },
        failed: (message: string): void => {
          getLog().info(`training runs: ${root}: ${message}`);
          runs.error = message;
          this.publish();
        },
      };
      runs.follower = new SummaryFollower(python, root, this.extensionPath, handlers, {
        interval: POLL_SECONDS,
        tags: LOSS_TAG_GLOBS,
      });
    } catch (e) {
      runs.error = e instanceof Error ? e.message : String(e);
    }
  }

  private publish(): void {
    const all = [...this.folders.values()];
    const items: TrainingRunItem[] = all.flatMap((r) => (r.doc ? trainingItems(r.doc) : []));
    const reading = all.some((r) => !r.doc && !r.error);
    const error = items.length ? undefined : all.find((r) => r.error)?.error;
    this.state = { items, reading, error };
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const runs of this.folders.values()) runs.follower?.dispose();
    this.folders.clear();
    this.changed.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

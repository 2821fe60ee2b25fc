// The training dashboard: one webview panel per summary folder, following its runs live.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PanelState } from '../contracts/messages';
import type { SummaryDocument } from '../contracts/summaryDocument';
import type {
  FromSummaryView,
  SummaryPanelState,
  ToSummaryView,
} from '../contracts/summaryMessages';
import { interpreterFor, reportFailure, runRuntime } from '../runtime/runner';
import { SummaryFollower } from '../summary/follower';
import { readGraphDocument } from './documents';
import { GraphPanel } from './graphPanel';
import { setWebviewContent } from './webviewContent';

export const SUMMARY_VIEW_TYPE = 'mindscope.summary';

export class SummaryPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, SummaryPanel>();
  private readonly disposables: vscode.Disposable[] = [];
  private follower: SummaryFollower | undefined;
  private doc: SummaryDocument | undefined;
  private ready = false;
  private readonly runPaths = new Map<string, string>();
  private firstDocument: (() => void) | undefined;

  static async createOrShow(
    extension: vscode.ExtensionContext,
    root: string,
    runs?: string[],
  ): Promise<SummaryPanel> {
    const key = path.resolve(root);
    const existing = SummaryPanel.panels.get(key);
    if (existing) {
      existing.panel.reveal(undefined, true);
      if (runs?.length) existing.select(runs);
      return existing;
    }
    const title = `Training: ${path.basename(key)}`;
    const panel = vscode.window.createWebviewPanel(SUMMARY_VIEW_TYPE, title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, { enableScripts: true }); // prettier-ignore
    const created = new SummaryPanel(panel, extension, { root: key, title, runs });
    await created.start();
    return created;
  }

  static async revive(
    panel: vscode.WebviewPanel,
    extension: vscode.ExtensionContext,
    state: PanelState | undefined,
  ): Promise<void> {
    if (!state?.file) {
      panel.dispose();
      return;
    }
    await new SummaryPanel(panel, extension, {
      root: state.file,
      title: state.title ?? panel.title,
    }).start();
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extension: vscode.ExtensionContext,
    private state: SummaryPanelState,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extension.extensionUri, 'media', 'profile.svg');
    setWebviewContent(panel.webview, extension.extensionUri, 'summary', state.title);
    SummaryPanel.panels.set(state.root, this);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: FromSummaryView) => this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Starts following; the first document (a full read of every run) shows progress. */
  private async start(): Promise<void> {
    let python: string;
    try {
      python = await interpreterFor(vscode.Uri.file(this.state.root));
    } catch (e) {
      await reportFailure('Reading the training summaries', e);
      return;
    }
    const first = new Promise<void>((resolve) => (this.firstDocument = resolve));
    this.follower = new SummaryFollower(python, this.state.root, this.extension.extensionPath, {
      document: (doc) => this.receiveDocument(doc),
      failed: (message) => {
        this.firstDocument?.();
        void reportFailure('Reading the training summaries', new Error(message));
      },
    });
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `MindScope: reading summaries in ${this.state.root}`,
      },
      () => Promise.race([first, new Promise((r) => setTimeout(r, 120_000))]),
    );
  }

  private receiveDocument(doc: SummaryDocument): void {
    for (const run of doc.runs) this.runPaths.set(run.name, run.path);
    if (!doc.meta.incremental || !this.doc) {
      this.doc = doc;
      this.firstDocument?.();
      this.firstDocument = undefined;
      this.post({ type: 'load', doc, state: this.state });
      return;
    }
    this.post({ type: 'append', doc });
  }

  private post(message: ToSummaryView): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  private select(runs: string[]): void {
    this.state = { ...this.state, runs };
    if (this.doc) this.post({ type: 'load', doc: this.doc, state: this.state });
  }

  /** The document as the webview last got it (tests and the side panel read it). */
  get document(): SummaryDocument | undefined {
    return this.doc;
  }

  private receive(message: FromSummaryView): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.doc) this.post({ type: 'load', doc: this.doc, state: this.state });
        break;
      case 'export':
        void this.exportFile(message.name, message.format, message.data);
        break;
      case 'openGraph':
        void this.openGraph(message.run);
        break;
    }
  }

  async exportFile(
    name: string,
    format: 'png' | 'svg' | 'csv',
    data: string,
    target?: vscode.Uri,
  ): Promise<vscode.Uri | undefined> {
    const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_') || 'chart';
    const uri = target ?? (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(this.state.root, `${safe}.${format}`)),
      filters: { [format.toUpperCase()]: [format] },
    })); // prettier-ignore
    if (!uri) return undefined;
    const bytes =
      format === 'png'
        ? Buffer.from(data.replace(/^data:image\/png;base64,/, ''), 'base64')
        : Buffer.from(data, 'utf8');
    await fs.writeFile(uri.fsPath, bytes);
    return uri;
  }

  /** The run's recorded graph, converted by the runtime, in the graph panel. */
  async openGraph(run: string): Promise<GraphPanel | undefined> {
    const runPath = this.runPaths.get(run);
    if (!runPath) return undefined;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mindscope-summary-graph-'));
    const output = path.join(dir, 'graph.json');
    try {
      await runRuntime({
        title: `MindScope: reading the graph recorded in ${run}`,
        args: ['summary', runPath, '-o', path.join(dir, 'summary.json'), '--graph-out', output, '--quiet'],
        role: 'static', // the reader imports no user code
        extensionPath: this.extension.extensionPath,
        resource: vscode.Uri.file(this.state.root),
      }); // prettier-ignore
      const doc = await readGraphDocument(output);
      return GraphPanel.createOrShow(this.extension.extensionUri, doc, `Graph: ${run}`, output);
    } catch (e) {
      await reportFailure('Opening the recorded graph', e);
      return undefined;
    }
  }

  static forRoot(root: string): SummaryPanel | undefined {
    return SummaryPanel.panels.get(path.resolve(root));
  }

  dispose(): void {
    SummaryPanel.panels.delete(this.state.root);
    this.follower?.dispose();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

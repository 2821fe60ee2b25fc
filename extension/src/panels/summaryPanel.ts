// The training dashboard: one webview panel per summary folder, following its runs live.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SummaryDocument } from '../contracts/summaryDocument';
import type {
  FromSummaryView,
  SummaryPanelState,
  ToSummaryView,
} from '../contracts/summaryMessages';
import { interpreterFor, reportFailure, runRuntime } from '../runtime/runner';
import { SummaryFollower } from '../summary/follower';
import { mergeSummary } from '../summary/merge';
import { readGraphDocument } from './documents';
import { DocumentPanel, PanelRegistry } from './documentPanel';
import { graphPanels, type GraphPanel } from './graphPanel';

export const SUMMARY_VIEW_TYPE = 'mindscope.summary';

export class SummaryPanel extends DocumentPanel<SummaryDocument | undefined> {
  private follower: SummaryFollower | undefined;
  private readonly runPaths = new Map<string, string>();
  private firstDocument: (() => void) | undefined;

  static async createOrShow(
    extension: vscode.ExtensionContext,
    root: string,
    runs?: string[],
  ): Promise<SummaryPanel> {
    const key = path.resolve(root);
    const title = `Training: ${path.basename(key)}`;
    let created: SummaryPanel | undefined;
    const shown = summaryPanels.showOrCreate(
      key,
      title,
      (existing) => {
        if (runs?.length) existing.select(runs);
      },
      (panel) => (created = new SummaryPanel(panel, extension, { root: key, title, runs })),
      vscode.ViewColumn.Active,
    );
    await created?.start();
    return shown;
  }

  static register(extension: vscode.ExtensionContext): vscode.Disposable {
    const serializer = summaryPanels.serializer(async (panel, root, title) => {
      const revived = summaryPanels.track(new SummaryPanel(panel, extension, { root, title }));
      await revived.start();
      return revived;
    });
    return vscode.window.registerWebviewPanelSerializer(SUMMARY_VIEW_TYPE, serializer);
  }

  private constructor(
    panel: vscode.WebviewPanel,
    private readonly extension: vscode.ExtensionContext,
    private state: SummaryPanelState,
  ) {
    const { extensionUri } = extension;
    const look = {
      extensionUri,
      icon: 'profile.svg',
      bundle: 'summary',
      title: state.title,
    } as const;
    super(panel, look, undefined, state.title, state.root);
    this.disposables.push({ dispose: () => this.follower?.dispose() });
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
      this.postDocument();
      return;
    }
    // The panel's own copy stays current: an append that arrives before the view is ready (or
    // while it reloads) would otherwise be lost, as the view's `load` is this copy.
    mergeSummary(this.doc, structuredClone(doc));
    this.post({ type: 'append', doc });
  }

  private post(message: ToSummaryView): void {
    if (this.webviewReady) void this.panel.webview.postMessage(message);
  }

  /** The dashboard's own load message: the folder, and which runs to show. */
  protected override postDocument(): void {
    if (this.doc) this.post({ type: 'load', doc: this.doc, state: this.state });
  }

  private select(runs: string[]): void {
    this.state = { ...this.state, runs };
    this.postDocument();
  }

  /** The document as the webview last got it (tests and the side panel read it). */
  get document(): SummaryDocument | undefined {
    return this.doc;
  }

  protected override receive(message: FromSummaryView): void {
    switch (message.type) {
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
      return graphPanels.createOrShow(this.extension.extensionUri, doc, `Graph: ${run}`, output);
    } catch (e) {
      await reportFailure('Opening the recorded graph', e);
      return undefined;
    }
  }

  static forRoot(root: string): SummaryPanel | undefined {
    return summaryPanels.get(path.resolve(root));
  }
}

const summaryPanels = new PanelRegistry<SummaryPanel>(SUMMARY_VIEW_TYPE);

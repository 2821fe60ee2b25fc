// The one path every document panel (graph, profile, export report, training dashboard) takes:
// one webview panel per file (a document, or the dashboard's summary folder), shown again rather than
// duplicated, revived after a reload from the state its webview kept, and disposed once.
import * as vscode from 'vscode';
import type { PanelState } from '../contracts/messages';
import { getLog } from '../logging';
import { setWebviewContent, type ViewBundle } from './webviewContent';

/** How a panel kind looks: its icon and, unless it wires its own webview, its bundle. */
export interface PanelLook {
  extensionUri: vscode.Uri;
  icon: 'graph.svg' | 'profile.svg';
  /** The webview bundle to load; absent when the panel connects its webview itself. */
  bundle?: ViewBundle;
  title: string;
}

/** A webview panel that shows one document and owns its disposables. */
export abstract class DocumentPanel<Doc> implements vscode.Disposable {
  protected readonly disposables: { dispose(): unknown }[] = [];
  private disposed = false;
  /** The webview has said `ready`: messages posted now are not lost. */
  protected webviewReady = false;
  /** Set by the registry that opened the panel: forgets it when it closes. */
  onClosed: (() => void) | undefined;

  protected constructor(
    readonly panel: vscode.WebviewPanel,
    look: PanelLook,
    protected doc: Doc,
    protected title: string,
    /** The document file (the summary folder for the dashboard): the panel's identity. */
    readonly file: string,
  ) {
    panel.iconPath = vscode.Uri.joinPath(look.extensionUri, 'media', look.icon);
    if (look.bundle) {
      setWebviewContent(panel.webview, look.extensionUri, look.bundle, look.title);
      this.disposables.push(
        panel.webview.onDidReceiveMessage((m: { type?: unknown }) => {
          // A (re)loaded webview starts empty and says so: send it the document.
          if (m.type !== 'ready') return this.receive(m);
          this.webviewReady = true;
          this.postDocument();
        }),
      );
    }
    this.disposables.push(panel.onDidDispose(() => this.dispose()));
  }

  /** Shows a new version of the document in this panel. */
  show(doc: Doc, title: string): void {
    this.doc = doc;
    this.title = title;
    this.panel.title = title;
    this.postDocument();
  }

  /** What the webview restores after a reload (with `setState`): the file to reread. */
  protected get panelState(): PanelState {
    return { file: this.file, title: this.title };
  }

  /** Sends the document to the webview: after `show` and whenever the webview is ready. */
  protected postDocument(): void {
    void this.panel.webview.postMessage({
      type: 'load',
      doc: this.doc,
      title: this.title,
      state: this.panelState,
    });
  }

  /** A message from the webview other than `ready`; panels that expect some override this. */
  protected receive(message: unknown): void {
    getLog().debug(`${this.file}: unexpected webview message ${JSON.stringify(message)}`);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onClosed?.();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
  }
}

/** The open panels of one kind, by file, in the order they were opened. */
export class PanelRegistry<P extends DocumentPanel<unknown>> {
  private readonly open = new Map<string, P>();

  constructor(readonly viewType: string) {}

  get(file: string): P | undefined {
    return this.open.get(file);
  }

  latest(): P | undefined {
    return [...this.open.values()].pop();
  }

  /** The focused panel of this kind, else the latest. */
  active(): P | undefined {
    return [...this.open.values()].find((p) => p.panel.active) ?? this.latest();
  }

  /** Reveals the panel of `file` (then `update`s it), or opens a new webview panel for `make`. */
  showOrCreate(
    file: string,
    title: string,
    update: (existing: P) => void,
    make: (panel: vscode.WebviewPanel) => P,
    column: vscode.ViewColumn = vscode.ViewColumn.Beside,
  ): P {
    const existing = this.open.get(file);
    if (existing) {
      existing.panel.reveal(undefined, true);
      update(existing);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      this.viewType,
      title,
      { viewColumn: column, preserveFocus: column === vscode.ViewColumn.Beside },
      { enableScripts: true },
    );
    return this.track(make(panel));
  }

  /** Keeps `p` until it closes. */
  track(p: P): P {
    this.open.set(p.file, p);
    p.onClosed = () => {
      if (this.open.get(p.file) === p) this.open.delete(p.file);
    };
    return p;
  }

  /** Restores panels after a reload: `revive` rebuilds one from its state, or throws. */
  serializer(
    revive: (panel: vscode.WebviewPanel, file: string, title: string) => Promise<P>,
  ): vscode.WebviewPanelSerializer<PanelState> {
    return {
      deserializeWebviewPanel: async (panel, state: PanelState | undefined) => {
        try {
          if (!state?.file) throw new Error('no file in the panel state');
          this.track(await revive(panel, state.file, state.title ?? panel.title));
        } catch {
          panel.dispose(); // the file is gone or no longer a document: nothing to restore
        }
      },
    };
  }
}

/** The registry of a panel kind whose document is a file, reread on revive. */
export class FilePanels<Doc, P extends DocumentPanel<Doc>> extends PanelRegistry<P> {
  constructor(
    viewType: string,
    private readonly read: (file: string) => Promise<Doc>,
    private readonly make: (
      panel: vscode.WebviewPanel,
      extensionUri: vscode.Uri,
      doc: Doc,
      title: string,
      file: string,
    ) => P,
  ) {
    super(viewType);
  }

  /** Shows `doc` (read from `file`) in its panel, creating the panel when needed. */
  createOrShow(extensionUri: vscode.Uri, doc: Doc, title: string, file: string): P {
    return this.showOrCreate(
      file,
      title,
      (p) => p.show(doc, title),
      (panel) => this.make(panel, extensionUri, doc, title, file),
    );
  }

  register(extensionUri: vscode.Uri): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(
      this.viewType,
      this.serializer(async (panel, file, title) =>
        this.make(panel, extensionUri, await this.read(file), title, file),
      ),
    );
  }
}

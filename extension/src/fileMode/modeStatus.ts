// The status bar item with the active Python file's (or notebook's) execution mode and syntax
// level, e.g. `GRAPH · LAX`, asked of the language server (`mindscope/fileMode`, static only).
// Click: a quick pick of the set_context call, the compiled functions, the setting and the rules.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  FILE_MODE_METHOD,
  isFileMode,
  type FileMode,
  type FileModeParams,
} from '../contracts/fileMode';
import {
  LEVEL_SETTING,
  pickEntries,
  statusText,
  statusTooltip,
  type Place,
} from './modeStatusText';
import type { ServerState } from '../server/statusItem';

export const SHOW_FILE_MODE = 'mindscope.showFileMode';
const CELL_SCHEME = 'vscode-notebook-cell';
const TYPING_DELAY_MS = 400;

/** What the item needs of the server manager. */
export interface FileModeServer {
  readonly onDidChangeState: vscode.Event<ServerState>;
  request(method: string, params: unknown): Promise<unknown>;
}

/** What the item shows: read by the end-to-end tests through the extension's API. */
export interface ModeStatusSnapshot {
  visible: boolean;
  text: string;
  tooltip: string;
  mode: FileMode | undefined;
}

/** The file or notebook the item describes. */
interface Target {
  params: FileModeParams;
  notebook: vscode.NotebookDocument | undefined;
  /** Documents whose edits change the answer. */
  documents: Set<string>;
}

function isPythonCell(cell: vscode.NotebookCell): boolean {
  return cell.kind === vscode.NotebookCellKind.Code && cell.document.languageId === 'python';
}

function notebookTarget(notebook: vscode.NotebookDocument): Target | undefined {
  const cells = notebook.getCells().filter(isPythonCell);
  if (!cells.length) return undefined;
  const uris = cells.map((c) => c.document.uri.toString());
  return {
    params: { uri: notebook.uri.toString(), cells: uris },
    notebook,
    documents: new Set(uris),
  };
}

/** The active Python editor's file, or the notebook it (or the active notebook) belongs to. */
function activeTarget(): Target | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (document?.uri.scheme === CELL_SCHEME) {
    const notebook = vscode.workspace.notebookDocuments.find((nb) =>
      nb.getCells().some((c) => c.document === document),
    );
    return notebook ? notebookTarget(notebook) : undefined;
  }
  if (document?.languageId === 'python') {
    const uri = document.uri.toString();
    return { params: { uri }, notebook: undefined, documents: new Set([uri]) };
  }
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  return notebook ? notebookTarget(notebook) : undefined;
}

export class ModeStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'mindscope.fileMode',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly disposables: { dispose(): unknown }[] = [this.item];
  private target: Target | undefined;
  private mode: FileMode | undefined;
  private asked = 0; // answers to older requests are dropped
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly server: FileModeServer,
  ) {
    this.item.name = 'MindScope Execution Mode';
    this.item.command = SHOW_FILE_MODE;
    const soon = (): void => this.schedule(0);
    this.disposables.push(
      vscode.commands.registerCommand(SHOW_FILE_MODE, () => this.showPick()),
      vscode.window.onDidChangeActiveTextEditor(soon),
      vscode.window.onDidChangeActiveNotebookEditor(soon),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.target?.documents.has(e.document.uri.toString())) {
          this.schedule(TYPING_DELAY_MS);
        }
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.notebook === this.target?.notebook && e.contentChanges.length) {
          this.schedule(TYPING_DELAY_MS);
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mindscope.graphMode')) this.schedule(TYPING_DELAY_MS);
      }),
      server.onDidChangeState((state) => {
        if (state.kind === 'running') this.schedule(0);
        else this.hide();
      }),
    );
    this.schedule(0);
  }

  get snapshot(): ModeStatusSnapshot {
    const tooltip = this.item.tooltip;
    return {
      visible: this.mode !== undefined,
      text: this.item.text,
      tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
      mode: this.mode,
    };
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delayMs);
  }

  private async refresh(): Promise<void> {
    const target = activeTarget();
    const ticket = ++this.asked;
    this.target = target;
    if (!target) {
      this.hide();
      return;
    }
    let answer: unknown;
    try {
      answer = await this.server.request(FILE_MODE_METHOD, target.params);
    } catch {
      answer = undefined; // the server is restarting: its state change asks again
    }
    if (ticket !== this.asked) return;
    if (isFileMode(answer)) this.show(answer, target);
    else this.hide();
  }

  private show(mode: FileMode, target: Target): void {
    this.mode = mode;
    const tooltip = new vscode.MarkdownString(
      statusTooltip(mode, this.place(target), target.notebook !== undefined),
    );
    tooltip.supportThemeIcons = true;
    this.item.text = statusText(mode);
    this.item.tooltip = tooltip;
    this.item.show();
  }

  private hide(): void {
    this.mode = undefined;
    this.item.hide();
  }

  /** `line 12`, or `cell 3, line 1` in a notebook (cells counted as the user sees them). */
  private place(target: Target): Place {
    const cells = target.notebook?.getCells() ?? [];
    return ({ uri, line }) => {
      const cell = cells.findIndex((c) => c.document.uri.toString() === uri);
      return cell >= 0 ? `cell ${cell + 1}, line ${line + 1}` : `line ${line + 1}`;
    };
  }

  private async showPick(): Promise<void> {
    const mode = this.mode;
    const target = this.target;
    if (!mode || !target) {
      void vscode.window.showInformationMessage('MindScope: open a Python file or notebook.');
      return;
    }
    type Item = vscode.QuickPickItem & { run?: () => Thenable<unknown> };
    const items: Item[] = pickEntries(mode, this.place(target)).map((entry) => {
      if (entry.kind === 'separator') {
        return { label: entry.label, kind: vscode.QuickPickItemKind.Separator };
      }
      const action = entry.action;
      const run = (): Thenable<unknown> => {
        switch (action.kind) {
          case 'reveal':
            return reveal(vscode.Uri.parse(action.uri), action.line);
          case 'settings':
            return vscode.commands.executeCommand('workbench.action.openSettings', LEVEL_SETTING);
          case 'rules':
            return vscode.commands.executeCommand('markdown.showPreview', this.rulesPage());
        }
      };
      return { label: entry.label, description: entry.description, detail: entry.detail, run };
    });
    const picked = await vscode.window.showQuickPick(items, {
      title: `MindScope: ${this.item.text.replace(/^\$\([\w-]+\)\s*/, '')}`,
      matchOnDescription: true,
    });
    await picked?.run?.();
  }

  /** The rules' index, shipped in docs/ beside the extension. */
  private rulesPage(): vscode.Uri {
    return vscode.Uri.file(path.join(this.extensionPath, 'docs', 'rules', 'README.md'));
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

/** Opens a file or a notebook cell at a 0-based line. */
async function reveal(uri: vscode.Uri, line: number): Promise<void> {
  const position = new vscode.Position(line, 0);
  await vscode.window.showTextDocument(uri, {
    selection: new vscode.Selection(position, position),
  });
}

// Where the nn.Cell subclasses of a file are: asked of the language server, whose checker
// really discovers them (`mindscope/cellClasses`); while no server runs, or one without the
// request answers "method not found", the textual fallback in cellClasses.ts.
import * as vscode from 'vscode';
import { CELL_CLASSES_METHOD, type CellClassesParams } from '../contracts/cellClasses';
import { getLog } from '../logging';
import type { ServerState } from '../server/statusItem';
import { findCellClasses, type CellClass } from './cellClasses';
import { cellsFromReply, isMethodNotFound } from './cellReply';

/** What the finder needs of the language client (server/client.ts's ServerManager). */
export interface CellClassServer {
  request(method: string, params: unknown): Promise<unknown>;
  readonly onDidChangeState: vscode.Event<ServerState>;
}

export class CellClassFinder implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the source of answers changes (a server started or stopped). */
  readonly onDidChange = this.changed.event;
  /** The running server lacks the request: use the fallback until it restarts. */
  private unsupported = false;
  private readonly state: vscode.Disposable;

  constructor(private readonly server: CellClassServer) {
    this.state = server.onDidChangeState(() => {
      this.unsupported = false;
      this.changed.fire();
    });
  }

  async find(document: vscode.TextDocument): Promise<CellClass[]> {
    if (!this.unsupported) {
      const params: CellClassesParams = { textDocument: { uri: document.uri.toString() } };
      try {
        const cells = cellsFromReply(await this.server.request(CELL_CLASSES_METHOD, params));
        if (cells) return cells;
      } catch (e) {
        if (isMethodNotFound(e)) this.unsupported = true;
        else getLog().debug(`${CELL_CLASSES_METHOD} failed: ${String(e)}`);
      }
    }
    return findCellClasses(document.getText());
  }

  dispose(): void {
    this.state.dispose();
    this.changed.dispose();
  }
}

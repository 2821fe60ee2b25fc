// The seam between the notebook controller (which owns kernel processes) and the cell debug
// adapter (which speaks DAP to a kernel). The controller implements NotebookKernels; the debug
// adapter only consumes it, so neither imports the other's internals.
import type * as vscode from 'vscode';

/** A DAP message as the Jupyter debug protocol carries it (`debug_request`/`debug_reply`/`debug_event` content). */
export interface DapMessage {
  seq: number;
  type: 'request' | 'response' | 'event';
  command?: string;
  event?: string;
  arguments?: unknown;
  body?: unknown;
  success?: boolean;
  message?: string;
  request_seq?: number;
}

/** The debug side of one running kernel. */
export interface KernelDebugLink {
  /** Sends `request` as a `debug_request` on the control channel; resolves with the `debug_reply` content. */
  debugRequest(request: DapMessage): Promise<DapMessage>;
  /** `debug_event` contents arriving on iopub, in order. */
  readonly onDebugEvent: vscode.Event<DapMessage>;
  /** Fires once when this kernel process exits or is restarted (the link is dead afterwards). */
  readonly onDidExit: vscode.Event<void>;
}

export interface NotebookKernels {
  /** The running MindScope kernel of `notebook`, started first if none runs. Rejects with a
   * one-line reason (untrusted workspace, missing ipykernel/MindSpore, …). */
  kernelFor(notebook: vscode.NotebookDocument): Promise<KernelDebugLink>;
  /** Runs `cells` exactly as the Run button does (outputs, execution order, timing); resolves
   * when the last one has finished. */
  executeCells(
    notebook: vscode.NotebookDocument,
    cells: readonly vscode.NotebookCell[],
  ): Promise<void>;
}

// Source links and export artefact buttons clicked in a notebook output (webview/renderer).
import * as vscode from 'vscode';
import { isArtefactAction } from '../contracts/exportReport';
import { artefactAction } from './exportPanel';
import { openSource } from './openSource';

export const RENDERER_ID = 'mindscope.renderer';

export function rendererMessaging(): vscode.Disposable {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  return messaging.onDidReceiveMessage(({ message }: { message: unknown }) => {
    const m = message as { type?: unknown; target?: { file?: unknown; line?: unknown } };
    if (m.type === 'openSource' && typeof m.target?.file === 'string') {
      const line = typeof m.target.line === 'number' ? m.target.line : 1;
      void openSource({ file: m.target.file, line });
    }
    const a = message as { type?: unknown; action?: unknown; file?: unknown; snippet?: unknown };
    if (a.type === 'artefact' && typeof a.file === 'string' && isArtefactAction(a.action)) {
      void artefactAction(a.action, a.file, typeof a.snippet === 'string' ? a.snippet : null);
    }
  });
}

// Looking inside webviews (and at the workbench's own DOM) from the suite: the driver owns the
// browser and answers queries written to the results folder (protocol.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MindScopeApi } from '../../../extension/src/extension';
import {
  ANSWER_SUFFIX,
  E2E_ENV,
  QUERY_SUFFIX,
  type WebviewAction,
  type WebviewAnswer,
} from '../protocol';
import { env, waitFor } from './harness';

let queries = 0;

/** Asks the driver to look inside the webview whose title contains `title`. */
export async function webview(
  title: string,
  selector: string,
  action: WebviewAction = { kind: 'count' },
  frame: 'webview' | 'workbench' = 'webview',
): Promise<WebviewAnswer> {
  const dir = env(E2E_ENV.results);
  const id = `q${++queries}-${Date.now()}`;
  const file = path.join(dir, `${id}${QUERY_SUFFIX}`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ id, frame, title, selector, action }));
  fs.renameSync(`${file}.tmp`, file);
  const answer = path.join(dir, `${id}${ANSWER_SUFFIX}`);
  await waitFor(`the driver's answer to ${selector}`, () => fs.existsSync(answer), Boolean, 30_000);
  const result = JSON.parse(fs.readFileSync(answer, 'utf8')) as WebviewAnswer;
  fs.rmSync(answer);
  if (result.error) throw new Error(`webview query ${selector}: ${result.error}`);
  return result;
}

/** The workbench page's own elements (status bar, quick input, notifications). */
export function workbench(selector: string, action: WebviewAction = { kind: 'count' }) {
  return webview('', selector, action, 'workbench');
}

/** Polls a webview until `selector` matches at least `min` elements. */
export async function waitForElements(
  title: string,
  selector: string,
  min = 1,
  timeoutMs = 60_000,
): Promise<number> {
  const answer = await waitFor(
    `${min}+ ${selector} in webview "${title}"`,
    () => webview(title, selector),
    (a) => a.count >= min,
    timeoutMs,
  );
  return answer.count;
}

/** A file of the repository under test. */
export function repoFile(...parts: string[]): string {
  return path.join(env(E2E_ENV.repo), ...parts);
}

export function exampleFile(...parts: string[]): string {
  return repoFile('examples', ...parts);
}

const EXTENSION_ID = 'mindscope.mindscope';

/** The extension's API, once it is active. */
export async function mindscopeApi(): Promise<MindScopeApi> {
  const extension = vscode.extensions.getExtension<MindScopeApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in the workbench`);
  return extension.isActive ? extension.exports : await extension.activate();
}

/** Waits until the language server runs (after start-up or a restart). */
export async function serverRunning(): Promise<MindScopeApi> {
  const api = await mindscopeApi();
  await api.whenServerSettled();
  await waitFor(
    'the server running',
    () => api.serverState,
    (s) => s.kind === 'running',
    90_000,
  );
  return api;
}

/** Back to a plain layout between tests: no editors or panel, default theme, even columns. */
export async function restoreLayout(): Promise<void> {
  const settings = vscode.workspace.getConfiguration('workbench');
  if (settings.inspect('colorTheme')?.globalValue !== undefined) {
    await settings.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await vscode.commands.executeCommand('workbench.action.evenEditorWidths');
}

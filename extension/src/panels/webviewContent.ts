// Points a webview at one of MindScope's webview bundles, with the CSP shell.
import * as vscode from 'vscode';
import { makeNonce, webviewHtml } from './html';

export type ViewBundle = 'graph' | 'profile' | 'summary' | 'export';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

export function setWebviewContent(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  bundle: ViewBundle,
  title: string,
): void {
  const asset = (file: string): string =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', file)).toString();
  webview.options = webviewOptions(extensionUri);
  webview.html = webviewHtml({
    title,
    cspSource: webview.cspSource,
    scriptUri: asset(`${bundle}.js`),
    styleUris: [asset(`${bundle}.css`)],
    nonce: makeNonce(),
  });
}

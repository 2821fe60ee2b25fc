// The HTML shell of every MindScope webview: a strict CSP whose only script is ours, by nonce.
// Pure (no vscode import), unit-tested.
import { randomBytes } from 'node:crypto';
import { escapeHtml } from './escape';

export interface ShellOptions {
  title: string;
  /** `webview.cspSource`: the origin VS Code serves local resources from. */
  cspSource: string;
  scriptUri: string;
  styleUris: string[];
  nonce: string;
}

export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export { escapeHtml };

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    // The graph view lays out in a Web Worker made from its own bundled script text.
    'worker-src blob:',
  ].join('; ');
}

export function webviewHtml(o: ShellOptions): string {
  const styles = o.styleUris
    .map((u) => `<link rel="stylesheet" href="${escapeHtml(u)}">`)
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeHtml(o.title)}</title>
  </head>
  <body>
    <div id="root"></div>
    <script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
  </body>
</html>`;
}

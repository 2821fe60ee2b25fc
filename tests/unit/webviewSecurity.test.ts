import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  contentSecurityPolicy,
  escapeHtml,
  makeNonce,
  webviewHtml,
} from '../../extension/src/panels/html';

const shell = (title: string, nonce = 'abc123'): string =>
  webviewHtml({
    title,
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/graph.js',
    styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/graph.css'],
    nonce,
  });

test('the CSP allows only our nonce for scripts and nothing remote', () => {
  const csp = contentSecurityPolicy('vscode-resource:', 'N0nce');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-N0nce'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:\/\/|\*/);
  // The graph view's layout worker comes from a blob: of its own script; nothing else may run
  // as a worker, and blob: is no script source of the page.
  assert.match(csp, /(^|; )worker-src blob:(;|$)/);
  assert.equal(csp.match(/blob:/g)?.length, 1);
  assert.doesNotMatch(csp, /child-src|script-src[^;]*blob:/);
  const html = shell('Graph', 'N0nce');
  assert.match(html, /<script nonce="N0nce" src=/);
  assert.equal(html.match(/<script/g)?.length, 1);
});

test('nonces are fresh and alphanumeric', () => {
  const a = makeNonce();
  assert.match(a, /^[A-Za-z0-9]{16,}$/);
  assert.notEqual(a, makeNonce());
});

test('a hostile title is escaped in the shell', () => {
  const html = shell('<img src=x onerror="alert(1)">');
  assert.ok(!html.includes('<img'), html);
  assert.ok(html.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'));
  assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
});

const WEBVIEW = path.resolve(__dirname, '../../../extension/webview');

function webviewSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(WEBVIEW);
  return files;
}

test('webview code never imports vscode and never writes markup from strings', () => {
  const files = webviewSources();
  assert.ok(files.length > 10);
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /from ['"]vscode['"]/, f);
    assert.doesNotMatch(text, /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write/, f);
  }
});

// Bidi controls (issue 19): dom.ts strips them; the few texts set elsewhere must too.
test('the webview texts that bypass dom.ts (titles, canvas) go through displayText', () => {
  let seen = 0;
  for (const f of webviewSources()) {
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
      if (!/document\.title\s*=|fillText\(|tip\.textContent\s*=/.test(line)) continue;
      seen += 1;
      // Only the time axis draws text of its own (numbers).
      if (line.includes('formatMs((t -')) continue;
      assert.match(line, /displayText\(/, `${path.basename(f)}: ${line.trim()}`);
    }
  }
  assert.ok(seen >= 5, `${seen} sites`);
  const dom = fs.readFileSync(path.join(WEBVIEW, 'common', 'dom.ts'), 'utf8');
  assert.match(dom, /createTextNode\(displayText\(c\)\)/);
});

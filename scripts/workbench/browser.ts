// Opens the workbench in Debian's headless Chromium through playwright-core.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

export function chromiumPath(): string {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (fs.existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Chromium was not found: run "make setup" (it installs Debian\'s chromium).');
  }
}

export async function openBrowser(): Promise<{ context: BrowserContext; page: Page }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1400, height: 900 },
    // This machine has no network: background services would only fail, noisily.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

export function workbenchUrl(
  base: string,
  workspace: string,
  payload?: [string, string][],
): string {
  const host = new URL(base).host;
  const remote = (p: string) => `vscode-remote://${host}${p}`;
  let url = `${base}/?folder=${encodeURIComponent(workspace)}`;
  if (payload) {
    const remoted = payload.map(([k, v]) => [k, remote(v)]);
    url += `&payload=${encodeURIComponent(JSON.stringify(remoted))}`;
  }
  return url;
}

// End-to-end driver: code-server on a free loopback port with isolated state, the workbench in
// headless Chromium, MindScope loaded as the extension under development, and the suite in
// tests/e2e/suite running inside the real Node extension host. Prints one summary line and
// exits non-zero when any test fails.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openBrowser, workbenchUrl } from '../../../scripts/workbench/browser';
import {
  freePort,
  makeDirs,
  startCodeServer,
  waitHealthy,
  writeUserSettings,
} from '../../../scripts/workbench/codeServer';
import { E2E_ENV, SuiteResult } from '../protocol';
import { serveScreenshots } from './screenshots';

const REPO = path.resolve(__dirname, '..', '..', '..');
const SUITE_TIMEOUT_MS = Number(process.env.MINDSCOPE_E2E_TIMEOUT_MS ?? 6 * 60_000);

async function main(): Promise<number> {
  const results = path.join(REPO, 'test-results', 'e2e');
  fs.rmSync(results, { recursive: true, force: true });
  fs.mkdirSync(results, { recursive: true });
  const dirs = makeDirs(fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-e2e-')));
  const python = process.env.MINDSCOPE_PYTHON ?? path.join(REPO, '.venv', 'bin', 'python');
  writeUserSettings(dirs, {
    'mindscope.python': python,
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.tips.enabled': false,
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const workspace = path.join(REPO, 'examples');
  const serverLog = path.join(results, 'code-server.log');
  const server = startCodeServer({
    dirs,
    port,
    workspace,
    logFile: serverLog,
    env: { [E2E_ENV.results]: results, [E2E_ENV.repo]: REPO, [E2E_ENV.python]: python },
  });
  const consoleLines: string[] = [];
  try {
    await waitHealthy(base, server, 60_000);
    const { context, page } = await openBrowser();
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
    try {
      const url = workbenchUrl(base, workspace, [
        ['extensionDevelopmentPath', REPO],
        ['extensionTestsPath', path.join(REPO, 'dist', 'test', 'e2e', 'index.js')],
      ]);
      await page.goto(url);
      await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
      const suite = await serveScreenshots(page, results, SUITE_TIMEOUT_MS);
      return report(suite, results, consoleLines);
    } finally {
      await context.close();
    }
  } finally {
    server.kill('SIGTERM');
  }
}

function report(suite: SuiteResult | undefined, results: string, consoleLines: string[]): number {
  if (!suite) {
    fs.writeFileSync(path.join(results, 'browser-console.log'), consoleLines.join('\n'));
    console.error(`e2e: the suite did not finish; see ${results}`);
    console.log(consoleLines.slice(-40).join('\n'));
    console.log('e2e: 0 passed, 1 failed');
    return 1;
  }
  for (const t of suite.tests) {
    console.log(
      `${t.ok ? 'PASS' : 'FAIL'} ${t.name} (${t.ms} ms)${t.ok ? '' : `\n  ${t.error ?? ''}`}`,
    );
  }
  const failed = suite.tests.filter((t) => !t.ok).length;
  if (failed) {
    fs.writeFileSync(path.join(results, 'browser-console.log'), consoleLines.join('\n'));
    console.log(`browser console (last 40 lines, all in ${results}/browser-console.log):`);
    console.log(consoleLines.slice(-40).join('\n'));
  }
  console.log(`screenshots: ${results}`);
  console.log(`e2e: ${suite.tests.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`e2e: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);

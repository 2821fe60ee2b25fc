// End-to-end driver: code-server on a free loopback port with isolated state, the workbench in
// headless Chromium, MindScope loaded as the extension under development, and the suite in
// tests/e2e/suite running inside the real Node extension host. One launch per trust state
// (launches.ts). Prints one summary line and exits non-zero when any test fails.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openBrowser, workbenchUrl } from '../../../scripts/workbench/browser';
import {
  freePort,
  makeDirs,
  startCodeServer,
  waitHealthy,
  writeMachineSettings,
  writeUserSettings,
} from '../../../scripts/workbench/codeServer';
import { LAUNCHES, SHADOWS, UNTRUSTED_TESTS, type Launch } from '../launches';
import {
  E2E_ENV,
  PROGRESS_FILE,
  RESULT_FILE,
  selected,
  SuiteResult,
  TestResult,
} from '../protocol';
import { serveScreenshots, SuiteLimits, SuiteOutcome } from './screenshots';
import { removeShadows, writeShadows } from './shadows';

const REPO = path.resolve(__dirname, '..', '..', '..');
// The suite fails a test that runs past its own limit (harness.ts) and goes on; these limits
// only catch an extension host that stopped answering.
const SUITE_LIMITS: SuiteLimits = {
  totalMs: Number(process.env.MINDSCOPE_E2E_TIMEOUT_MS ?? 60 * 60_000),
  idleMs: Number(process.env[E2E_ENV.testTimeout] ?? 8 * 60_000) + 2 * 60_000,
};
const GREP = process.env[E2E_ENV.grep] || undefined;

/** `code-server.log` for the trusted launch, `code-server-untrusted.log` for the other. */
function launchFile(results: string, file: string, launch: Launch): string {
  if (launch.name === 'trusted') return path.join(results, file);
  const ext = path.extname(file);
  return path.join(results, `${path.basename(file, ext)}-${launch.name}${ext}`);
}

/** The trusted launch always runs (its tests are only known inside the workbench). */
function wanted(launch: Launch): boolean {
  const only = process.env.MINDSCOPE_E2E_LAUNCHES?.split(',').map((s) => s.trim());
  if (only?.length && !only.includes(launch.name)) return false;
  if (launch.name === 'untrusted') {
    return Object.values(UNTRUSTED_TESTS).some((name) => selected(GREP, name));
  }
  return true;
}

async function runLaunch(launch: Launch, results: string, python: string): Promise<SuiteResult> {
  const dirs = makeDirs(fs.mkdtempSync(path.join(os.tmpdir(), 'mindscope-e2e-')));
  writeMachineSettings(dirs, { 'mindscope.python': python });
  writeUserSettings(dirs, {
    'mindscope.python': python,
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.tips.enabled': false,
    ...launch.settings,
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const workspace = path.join(REPO, 'examples');
  const env: NodeJS.ProcessEnv = {
    [E2E_ENV.results]: results,
    [E2E_ENV.repo]: REPO,
    [E2E_ENV.python]: python,
    [E2E_ENV.launch]: launch.name,
  };
  if (GREP) env[E2E_ENV.grep] = GREP;
  // The folder a user has not trusted holds modules that shadow ours (removed below).
  if (launch.name === 'untrusted') {
    writeShadows(workspace, REPO, path.join(results, SHADOWS.markers));
  }
  const server = startCodeServer({
    dirs,
    port,
    workspace,
    logFile: launchFile(results, 'code-server.log', launch),
    env,
  });
  const consoleLines: string[] = [];
  let outcome: SuiteOutcome;
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
      outcome = await serveScreenshots(page, results, SUITE_LIMITS);
    } finally {
      await context.close();
    }
  } finally {
    server.kill('SIGTERM');
    removeShadows(workspace);
  }
  const suite = outcome.finished ? outcome.result : unfinished(launch, results, outcome);
  if (suite.tests.some((t) => !t.ok)) {
    const log = launchFile(results, 'browser-console.log', launch);
    fs.writeFileSync(log, consoleLines.join('\n'));
    console.log(`browser console of the ${launch.name} launch (last 40 lines, all in ${log}):`);
    console.log(consoleLines.slice(-40).join('\n'));
  }
  // The next launch's suite signals its end with the same files.
  for (const file of [RESULT_FILE, PROGRESS_FILE]) {
    const from = path.join(results, file);
    const ext = path.extname(file);
    const to = path.join(results, `${path.basename(file, ext)}-${launch.name}${ext}`);
    if (fs.existsSync(from)) fs.renameSync(from, to);
  }
  return suite;
}

/** What a suite that never wrote its result got through, and the test it was stuck in. */
function unfinished(
  launch: Launch,
  results: string,
  outcome: Extract<SuiteOutcome, { finished: false }>,
): SuiteResult {
  const running = outcome.progress?.running;
  const stuck: TestResult = {
    name: `${launch.name} launch: the suite did not finish${running ? ` (in "${running}")` : ''}`,
    ok: false,
    ms: 0,
    error: `${outcome.reason}; see ${results}`,
  };
  return { vscodeVersion: '', tests: [...(outcome.progress?.tests ?? []), stuck] };
}

async function main(): Promise<number> {
  const results = path.resolve(
    process.env.MINDSCOPE_E2E_OUT ?? path.join(REPO, 'test-results', 'e2e'),
  );
  fs.rmSync(results, { recursive: true, force: true });
  fs.mkdirSync(results, { recursive: true });
  const python = process.env.MINDSCOPE_PYTHON ?? path.join(REPO, '.venv', 'bin', 'python');
  const suites: SuiteResult[] = [];
  for (const launch of LAUNCHES.filter(wanted)) {
    suites.push(await runLaunch(launch, results, python));
  }
  const merged: SuiteResult = {
    vscodeVersion: suites.find((s) => s.vscodeVersion)?.vscodeVersion ?? '',
    tests: suites.flatMap((s) => s.tests),
  };
  fs.writeFileSync(path.join(results, RESULT_FILE), JSON.stringify(merged, null, 1));
  return report(merged, results);
}

function report(suite: SuiteResult, results: string): number {
  for (const t of suite.tests) {
    console.log(
      `${t.ok ? 'PASS' : 'FAIL'} ${t.name} (${t.ms} ms)${t.ok ? '' : `\n  ${t.error ?? ''}`}`,
    );
  }
  const failed = suite.tests.filter((t) => !t.ok).length;
  console.log(`screenshots: ${results}`);
  if (!suite.tests.length) console.log(`e2e: no test matches ${E2E_ENV.grep}=${GREP ?? ''}`);
  console.log(`e2e: ${suite.tests.length - failed} passed, ${failed} failed`);
  return failed || !suite.tests.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`e2e: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);

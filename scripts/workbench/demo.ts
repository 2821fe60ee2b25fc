// `make demo`: serve VS Code for the web on 127.0.0.1 with MindScope installed and examples/
// opened. Idempotent: a demo already running is reused; state lives in .build/demo.
// Usage: node dist/demo/serve.js [--port N] [--screenshot FILE] [--stop]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openBrowser, workbenchUrl } from './browser';
import {
  CodeServerDirs,
  installVsix,
  isHealthy,
  makeDirs,
  portIsFree,
  startCodeServer,
  waitHealthy,
  writeMachineSettings,
  writeUserSettings,
} from './codeServer';

const REPO = path.resolve(__dirname, '..', '..');
const STATE = path.join(REPO, '.build', 'demo');
const PID_FILE = path.join(STATE, 'code-server.pid');
const PORT_FILE = path.join(STATE, 'port');
const VSIX = path.join(REPO, 'dist', 'mindscope.vsix');
const WORKSPACE = path.join(REPO, 'examples');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function runningPid(): number | undefined {
  try {
    const pid = Number(fs.readFileSync(PID_FILE, 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function stop(): void {
  const pid = runningPid();
  if (pid) process.kill(-pid, 'SIGTERM');
  fs.rmSync(PID_FILE, { force: true });
  console.log(pid ? `stopped the demo (pid ${pid})` : 'no demo was running');
}

/** Installs the .vsix only when it changed since the last install; says whether it did. */
async function ensureExtension(dirs: CodeServerDirs): Promise<boolean> {
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing: run "make package" first`);
  const stamp = path.join(STATE, 'installed-vsix-mtime');
  const mtime = String(fs.statSync(VSIX).mtimeMs);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === mtime) return false;
  console.error('[mindscope] installing the MindScope extension into the demo workbench');
  await installVsix(dirs, VSIX);
  fs.writeFileSync(stamp, mtime);
  return true;
}

async function serve(port: number): Promise<string> {
  const base = `http://127.0.0.1:${port}`;
  const pid = runningPid();
  const previousPort = fs.existsSync(PORT_FILE) ? Number(fs.readFileSync(PORT_FILE, 'utf8')) : 0;
  const reuse = pid !== undefined && previousPort === port && (await isHealthy(base));
  if (!reuse) {
    if (pid) stop();
    if (!(await portIsFree(port))) {
      throw new Error(
        `port ${port} on 127.0.0.1 is in use by another program: run "make demo PORT=<free port>"`,
      );
    }
  }
  const dirs = makeDirs(STATE);
  const changed = await ensureExtension(dirs);
  if (reuse && !changed) {
    console.error(`[mindscope] the demo is already running (pid ${String(pid)})`);
    return base;
  }
  if (reuse) stop(); // a new build of the extension needs a fresh extension host
  writeMachineSettings(dirs, { 'mindscope.python': path.join(REPO, '.venv', 'bin', 'python') });
  writeUserSettings(dirs, {
    'mindscope.python': path.join(REPO, '.venv', 'bin', 'python'),
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    // The demo opens this repository's own examples: no trust prompt in front of them.
    'security.workspace.trust.enabled': false,
  });
  const child = startCodeServer({
    dirs,
    port,
    workspace: WORKSPACE,
    logFile: path.join(STATE, 'code-server.log'),
    detached: true,
  });
  await waitHealthy(base, child, 60_000);
  fs.writeFileSync(PID_FILE, String(child.pid));
  fs.writeFileSync(PORT_FILE, String(port));
  child.unref();
  return base;
}

/** Where the example model first calls `nn.Conv2d(`: 1-based line and the column after `nn.`. */
function afterNn(file: string): string {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes('nn.Conv2d('));
  const column = (lines[line] ?? '').indexOf('nn.Conv2d(') + 'nn.'.length + 1;
  return `${line + 1}:${column}`;
}

/** Opens the example model as a user would and shows MindScope's completion after `nn.`. */
async function screenshot(base: string, file: string): Promise<void> {
  const { context, page } = await openBrowser();
  try {
    await page.goto(workbenchUrl(base, WORKSPACE));
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    const model = path.join(WORKSPACE, 'cifar_resnet', 'model.py');
    await page.keyboard.press('Control+P');
    await page.keyboard.type('cifar_resnet/model.py');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 30_000 });
    await page.keyboard.press('Control+G');
    await page.keyboard.type(afterNn(model));
    await page.keyboard.press('Enter');
    // The server may still be starting: ask again until the suggestions arrive.
    const rows = '.suggest-widget.visible .monaco-list-row';
    for (const deadline = Date.now() + 90_000; ;) {
      await page.keyboard.press('Control+Space');
      const shown = await page
        .waitForSelector(rows, { timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      if (Date.now() > deadline) throw new Error('no completion appeared in the demo workbench');
      await page.keyboard.press('Escape');
    }
    await page.waitForTimeout(800); // let the details pane render
    await page.screenshot({ path: file });
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--stop')) {
    stop();
    return;
  }
  const port = Number(arg('--port') ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`"${String(arg('--port') ?? process.env.PORT)}" is not a TCP port number`);
  }
  const base = await serve(port);
  const shot = arg('--screenshot');
  if (shot) await screenshot(base, path.resolve(shot));
  console.log(`MindScope demo: ${base}/?folder=${WORKSPACE}`);
  console.log('Stop it with: make demo-stop');
}

main().catch((e: unknown) => {
  console.error(`[mindscope] error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

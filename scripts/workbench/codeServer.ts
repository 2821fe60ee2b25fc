// Starts code-server (VS Code for the web) on loopback with its own data directories, so tests
// and the demo never touch a user's VS Code state.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';

export function codeServerBinary(): string {
  const prefix =
    process.env.CODE_SERVER_PREFIX ?? path.join(os.homedir(), '.cache', 'mindscope', 'code-server');
  return process.env.CODE_SERVER ?? path.join(prefix, 'bin', 'code-server');
}

export interface CodeServerDirs {
  /** Holds XDG dirs, user data and extensions. */
  root: string;
  userData: string;
  extensions: string;
}

export function makeDirs(root: string): CodeServerDirs {
  const dirs = {
    root,
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
  };
  for (const d of [dirs.userData, dirs.extensions, path.join(dirs.userData, 'User')]) {
    fs.mkdirSync(d, { recursive: true });
  }
  return dirs;
}

export function writeUserSettings(dirs: CodeServerDirs, settings: Record<string, unknown>): void {
  const file = path.join(dirs.userData, 'User', 'settings.json');
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** Settings of `machine` / `machine-overridable` scope (`mindscope.python`): code-server's
 * workbench is a remote window, which applies them from the Machine settings only. From User
 * settings they count until the remote configuration loads (seen when a debug session starts),
 * and then read as unset. */
export function writeMachineSettings(
  dirs: CodeServerDirs,
  settings: Record<string, unknown>,
): void {
  const dir = path.join(dirs.userData, 'Machine');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export function isHealthy(url: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthz`, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

export async function waitHealthy(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}`);
    if (await isHealthy(url)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer on ${url} within ${timeoutMs / 1000} s`);
}

export interface StartOptions {
  dirs: CodeServerDirs;
  port: number;
  workspace: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  detached?: boolean;
}

export function startCodeServer(o: StartOptions): ChildProcess {
  const binary = codeServerBinary();
  if (!fs.existsSync(binary)) {
    throw new Error(`code-server is not installed at ${binary}: run "make setup" first.`);
  }
  const xdg = path.join(o.dirs.root, 'xdg');
  const log = fs.openSync(o.logFile, 'a');
  return spawn(
    binary,
    [
      '--auth=none',
      `--bind-addr=127.0.0.1:${o.port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      `--extensions-dir=${o.dirs.extensions}`,
      `--user-data-dir=${o.dirs.userData}`,
      o.workspace,
    ],
    {
      env: {
        ...process.env,
        ...o.env,
        XDG_DATA_HOME: path.join(xdg, 'data'),
        XDG_CONFIG_HOME: path.join(xdg, 'config'),
        XDG_CACHE_HOME: path.join(xdg, 'cache'),
      },
      stdio: ['ignore', log, log],
      detached: o.detached ?? false,
    },
  );
}

/** Installs a .vsix into the given extensions directory with code-server's own CLI. */
export function installVsix(dirs: CodeServerDirs, vsix: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      codeServerBinary(),
      [
        `--extensions-dir=${dirs.extensions}`,
        `--user-data-dir=${dirs.userData}`,
        '--force',
        `--install-extension=${vsix}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`installing ${vsix} failed: ${out.trim()}`)),
    );
  });
}

// Owns the language client: probe the interpreter, start the server over stdio, restart it.
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { getLog } from '../logging';
import { installCommand, probeInterpreter, ProbeResult } from './probe';
import { resolveInterpreter } from '../python/interpreter';
import { pythonChild } from '../python/child';
import { readGraphModeSettings } from '../settings';
import { folderFor } from '../workspaceFolder';
import { serverEnv } from './env';
import { ServerState, ServerStatusItem } from './statusItem';

const DOCUMENTS = [
  { scheme: 'file', language: 'python' },
  { scheme: 'untitled', language: 'python' },
  { scheme: 'vscode-notebook-cell', language: 'python' },
];

// Python files changed on disk reach the server's workspace index (a base Cell in a new file).
const WATCHED_FILES = '**/*.py';

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private watcher: vscode.FileSystemWatcher | undefined;
  private pending: Promise<void> = Promise.resolve();
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeState = this.stateEmitter.event;
  state: ServerState = { kind: 'stopped' };

  constructor(
    private readonly extensionPath: string,
    private readonly status: ServerStatusItem,
  ) {}

  /** Restarts are queued so that quick setting changes never run two servers. */
  restart(): Promise<void> {
    this.pending = this.pending
      .then(() => this.doRestart())
      .catch((e: unknown) => {
        this.setState({ kind: 'error', message: String(e) });
      });
    return this.pending;
  }

  private async doRestart(): Promise<void> {
    await this.stop();
    const log = getLog();
    // One server for the whole workspace: the interpreter of the folder being edited.
    const choice = await resolveInterpreter(folderFor()?.uri);
    if (!choice) {
      this.fail('No Python interpreter found: set "mindscope.python" or install python3.', true);
      return;
    }
    this.setState({ kind: 'starting', python: choice.command });
    log.info(`Using ${choice.command} (from ${choice.source})`);
    const env = serverEnv(this.extensionPath, process.env);
    const probe = await probeInterpreter(choice.command, env, this.extensionPath);
    if (probe.kind !== 'ok') {
      this.reportProbe(choice.command, probe);
      return;
    }
    // Never the client's default cwd (the first workspace folder): see pythonChild.
    const server = pythonChild({
      python: choice.command,
      extensionPath: this.extensionPath,
      module: 'mindscope_ls',
      args: [],
      env,
      role: 'static',
    });
    const serverOptions: ServerOptions = {
      command: server.command,
      args: server.args,
      options: { env: server.env, cwd: server.cwd },
    };
    // The client forwards the watcher's events but does not dispose it: stop() does.
    this.watcher = vscode.workspace.createFileSystemWatcher(WATCHED_FILES);
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENTS,
      outputChannel: log,
      traceOutputChannel: log,
      initializationOptions: { warmUp: true, graphMode: readGraphModeSettings() },
      synchronize: { fileEvents: this.watcher },
    };
    const client = new LanguageClient('mindscope', 'MindScope', serverOptions, clientOptions);
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client) {
        this.setState({ kind: 'error', message: 'The server stopped; see the logs.' });
      }
    });
    this.client = client;
    await client.start();
    this.setState({ kind: 'running', python: choice.command, version: probe.version });
    log.info(`Server running (Python ${probe.version})`);
  }

  /** Pushes `mindscope.graphMode.*` to the running server, which re-checks open documents. */
  async sendGraphModeSettings(): Promise<void> {
    if (this.client?.isRunning() !== true) return;
    await this.client.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { mindscope: { graphMode: readGraphModeSettings() } },
    });
  }

  /** A custom request to the running server; undefined while none runs. */
  async request(method: string, params: unknown): Promise<unknown> {
    const client = this.client;
    if (client?.isRunning() !== true) return undefined;
    return client.sendRequest(method, params);
  }

  private reportProbe(python: string, probe: Exclude<ProbeResult, { kind: 'ok' }>): void {
    switch (probe.kind) {
      case 'not-found':
        this.fail(`Python interpreter "${python}" was not found. Set "mindscope.python".`, true);
        break;
      case 'missing-packages': {
        const command = installCommand(python, probe.packages);
        void this.offerInstall(
          `MindScope needs ${probe.packages.join(', ')} in ${python}. Run: ${command}`,
          command,
        );
        this.setState({ kind: 'error', message: `Missing ${probe.packages.join(', ')}` });
        break;
      }
      case 'failed':
        this.fail(`"${python}" could not start the MindScope server: ${probe.message}`, true);
        break;
    }
  }

  private async offerInstall(message: string, command: string): Promise<void> {
    getLog().error(message);
    const choice = await vscode.window.showErrorMessage(message, 'Run in Terminal', 'Copy Command');
    if (choice === 'Run in Terminal') {
      const terminal = vscode.window.createTerminal('MindScope setup');
      terminal.show();
      terminal.sendText(command);
    } else if (choice === 'Copy Command') {
      await vscode.env.clipboard.writeText(command);
    }
  }

  private fail(message: string, offerSettings: boolean): void {
    getLog().error(message);
    this.setState({ kind: 'error', message });
    const actions = offerSettings ? ['Open Settings'] : [];
    void vscode.window.showErrorMessage(`MindScope: ${message}`, ...actions).then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'mindscope.python');
      }
    });
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.status.show(state);
    this.stateEmitter.fire(state);
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.watcher?.dispose();
    this.watcher = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (e) {
        getLog().warn(`Stopping the server: ${String(e)}`);
      }
      this.setState({ kind: 'stopped' });
    }
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
  }
}

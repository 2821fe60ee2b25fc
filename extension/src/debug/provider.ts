// The `mindscope` debug type: resolves configurations and starts debugpy's own adapter
// (`python -m debugpy.adapter`) from the user's interpreter; no Python extension needed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getLog } from '../logging';
import { pythonChild, startScript } from '../python/child';
import { execPythonChild } from '../python/spawn';
import { interpreterFor } from '../runtime/runner';
import { runtimeEnv } from '../runtime/env';
import { DEBUG_TYPE, toDebugpy, type DebugpyLaunch, type MindScopeLaunchConfig } from './config';

/** debugpy's adapter, or `debugpy --version`: static children, never in a workspace folder. */
function debugpyChild(python: string, extensionPath: string, module: string, args: string[]) {
  return pythonChild({ python, extensionPath, module, args, env: process.env, role: 'static' });
}

async function hasDebugpy(python: string, extensionPath: string): Promise<boolean> {
  const check = { python, extensionPath, module: 'debugpy', args: ['--version'] };
  const { error } = await execPythonChild(
    { ...check, env: process.env, role: 'static' },
    { timeoutMs: 20_000 },
  );
  return !error;
}

export class PyNativeDebugProvider
  implements vscode.DebugConfigurationProvider, vscode.DebugAdapterDescriptorFactory
{
  constructor(private readonly extensionPath: string) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [
      {
        type: DEBUG_TYPE,
        request: 'launch',
        name: 'MindScope: Debug in PyNative',
        program: '${file}',
      },
    ];
  }

  async resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): Promise<vscode.DebugConfiguration | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        'MindScope: Debug in PyNative runs your code; trust this workspace first.',
      );
      return undefined;
    }
    const c = config as MindScopeLaunchConfig;
    if (!c.program && !c.cell) {
      const file = vscode.window.activeTextEditor?.document.uri.fsPath;
      if (!file?.endsWith('.py')) {
        void vscode.window.showErrorMessage('MindScope: open a Python file to debug it.');
        return undefined;
      }
      c.program = file;
    }
    const python = c.python ?? (await interpreterFor(folder?.uri));
    if (!(await hasDebugpy(python, this.extensionPath))) {
      const choice = await vscode.window.showErrorMessage(
        `MindScope: debugpy is not installed in ${python}. Install it with: ${python} -m pip install debugpy`,
        'Show Logs',
      );
      if (choice) getLog().show();
      return undefined;
    }
    const pythonPath = runtimeEnv(this.extensionPath, {}).PYTHONPATH ?? '';
    const cwd = folder?.uri.fsPath ?? path.dirname(c.program ?? '.');
    const start = startScript(this.extensionPath);
    const launch: DebugpyLaunch = toDebugpy(c, python, pythonPath, cwd, start);
    getLog().info(`debug: ${python} ${launch.program} ${launch.args.join(' ')}`);
    return launch;
  }

  createDebugAdapterDescriptor(
    session: vscode.DebugSession,
  ): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    const config = session.configuration as unknown as Partial<DebugpyLaunch>;
    const python = config.python?.[0];
    if (!python) throw new Error('MindScope: the debug configuration names no interpreter');
    const adapter = debugpyChild(python, this.extensionPath, 'debugpy.adapter', []);
    return new vscode.DebugAdapterExecutable(adapter.command, adapter.args, {
      cwd: adapter.cwd,
      env: stringEnv(adapter.env),
    });
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

// Finds the Python interpreter for the server: setting, then the Python extension (when it is
// installed), then python3 on PATH.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { chooseInterpreter, findOnPath, InterpreterChoice } from './interpreterChoice';
import { readSettings } from '../settings';

// The slice of the Python extension's public API that MindScope uses.
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
    resolveEnvironment(env: {
      path: string;
    }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonExtensionApi(): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (!extension) return undefined;
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch {
    return undefined;
  }
}

async function fromPythonExtension(resource?: vscode.Uri): Promise<string | undefined> {
  const environments = (await pythonExtensionApi())?.environments;
  if (!environments) return undefined;
  const active = environments.getActiveEnvironmentPath(resource);
  const resolved = await environments.resolveEnvironment(active);
  return resolved?.executable.uri?.fsPath;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export async function resolveInterpreter(
  resource?: vscode.Uri,
): Promise<InterpreterChoice | undefined> {
  const setting = readSettings(resource).python;
  return chooseInterpreter({
    setting,
    pythonExtension: setting ? undefined : await fromPythonExtension(resource),
    onPath: findOnPath(['python3', 'python'], process.env.PATH ?? '', isExecutable),
  });
}

/** Fires when the Python extension switches interpreters (never, when it is not installed). */
export async function onPythonInterpreterChanged(
  listener: () => void,
): Promise<vscode.Disposable | undefined> {
  const environments = (await pythonExtensionApi())?.environments;
  return environments?.onDidChangeActiveEnvironmentPath(listener);
}

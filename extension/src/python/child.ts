// Every Python child of the extension is started from here, so that no workspace folder is on
// its sys.path unless it is meant to import the user's code (docs/security.md). Pure.
import * as path from 'node:path';

/**
 * `static`: never imports the user's code (language server, probe, .mindir decoder, debug
 * adapter, capability checks); runs in the extension's own folder, any workspace trust.
 * `user-code`: imports the user's model on purpose (runtime graph/profile/stats, debug launcher,
 * kernel); trusted workspaces only, in the folder the user's code expects.
 */
export type ChildRole = 'static' | 'user-code';

export interface PythonChildOptions {
  python: string;
  extensionPath: string;
  /** Run as `python -m module`, without the current directory on sys.path. */
  module: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  role: ChildRole;
  /** The working directory of a `user-code` child; `static` children ignore it. */
  cwd?: string;
}

export interface PythonChild {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The script that runs a module with a clean sys.path on Python 3.9+ (`-P` needs 3.11). */
export function startScript(extensionPath: string): string {
  return path.join(extensionPath, 'pyserver', 'mindscope_start.py');
}

export function pythonChild(o: PythonChildOptions): PythonChild {
  const args = [startScript(o.extensionPath), o.module, ...o.args];
  // No PYTHONSAFEPATH: it would reach the children of children (debugpy's debuggee, msrun's
  // `python script.py`), which need their script's folder on sys.path.
  if (o.role === 'static') return { command: o.python, args, cwd: o.extensionPath, env: o.env };
  if (!o.cwd) throw new Error(`a ${o.module} run that imports your code needs a folder`);
  return { command: o.python, args, cwd: o.cwd, env: o.env };
}

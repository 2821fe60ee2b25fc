// Which Python interpreter to use: pure logic, so that it is unit-tested without VS Code.

export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export interface InterpreterChoice {
  command: string;
  source: InterpreterSource;
}

export interface InterpreterCandidates {
  setting: string;
  pythonExtension?: string;
  onPath?: string;
}

/** The `mindscope.python` setting first, then the Python extension's interpreter, then PATH. */
export function chooseInterpreter(c: InterpreterCandidates): InterpreterChoice | undefined {
  if (c.setting) {
    return { command: expandHome(c.setting), source: 'setting' };
  }
  if (c.pythonExtension) {
    return { command: c.pythonExtension, source: 'python-extension' };
  }
  if (c.onPath) {
    return { command: c.onPath, source: 'path' };
  }
  return undefined;
}

function expandHome(p: string): string {
  const home = process.env.HOME ?? process.env.USERPROFILE;
  return home && (p === '~' || p.startsWith('~/')) ? home + p.slice(1) : p;
}

/** Finds an executable on a PATH string, the way a shell would. */
export function findOnPath(
  names: readonly string[],
  pathEnv: string,
  isExecutable: (file: string) => boolean,
  separator = ':',
): string | undefined {
  for (const dir of pathEnv.split(separator)) {
    if (!dir) continue;
    for (const name of names) {
      const file = `${dir.replace(/\/+$/, '')}/${name}`;
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

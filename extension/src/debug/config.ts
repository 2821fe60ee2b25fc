// "Debug in PyNative": turns a `mindscope` debug configuration into what debugpy's adapter
// launches: our launcher module, MS_JIT=0, and the user's script or Cell. Pure, unit-tested.
// The launcher imports the user's code (trusted workspaces only) but is itself started through
// the start script (python/child.ts), so a `mindscope_runtime/` beside the script cannot stand in.

export const DEBUG_TYPE = 'mindscope';
export const LAUNCH_MODULE = 'mindscope_runtime.pynative_launch';

/** The attributes a user writes in launch.json (see package.json `debuggers`). */
export interface MindScopeLaunchConfig {
  type: string;
  request: string;
  name: string;
  program?: string;
  args?: string[];
  cell?: string;
  input?: string[];
  inputsFrom?: string;
  cwd?: string;
  env?: Record<string, string>;
  python?: string;
  justMyCode?: boolean;
  stopOnEntry?: boolean;
  console?: 'internalConsole' | 'integratedTerminal' | 'externalTerminal';
}

/** The launch request debugpy's adapter receives. */
export interface DebugpyLaunch {
  type: string;
  request: 'launch';
  name: string;
  /** The start script; `args` begin with the launcher module. */
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  python: string[];
  justMyCode: boolean;
  stopOnEntry: boolean;
  console: string;
  redirectOutput: boolean;
  mindscope: { program?: string; cell?: string };
}

export function launcherArgs(c: MindScopeLaunchConfig): string[] {
  if (c.cell) {
    const args = ['--cell', c.cell];
    for (const spec of c.input ?? []) args.push('--input', spec);
    if (c.inputsFrom) args.push('--inputs-from', c.inputsFrom);
    return args;
  }
  if (!c.program) throw new Error('a mindscope configuration needs "program" or "cell"');
  return [c.program, ...(c.args ?? [])];
}

export function toDebugpy(
  c: MindScopeLaunchConfig,
  python: string,
  pythonPath: string,
  defaultCwd: string,
  startScript: string,
): DebugpyLaunch {
  const env: Record<string, string> = { ...(c.env ?? {}), MS_JIT: '0' };
  env.PYTHONPATH = [pythonPath, c.env?.PYTHONPATH].filter(Boolean).join(':');
  const where = c.program ?? c.cell?.split(':')[0];
  return {
    type: c.type,
    request: 'launch',
    name: c.name,
    program: startScript,
    args: [LAUNCH_MODULE, ...launcherArgs(c)],
    cwd: c.cwd ?? (where ? dirname(where) : defaultCwd),
    env,
    python: [c.python ?? python],
    justMyCode: c.justMyCode ?? true,
    stopOnEntry: c.stopOnEntry ?? false,
    console: c.console ?? 'internalConsole',
    redirectOutput: true,
    mindscope: { program: c.program, cell: c.cell },
  };
}

function dirname(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash > 0 ? file.slice(0, slash) : '.';
}

/** The configuration "Debug in PyNative" starts for a script or a Cell. */
export function pynativeConfig(
  target: { program: string } | { cell: string; input?: string[]; inputsFrom?: string },
): MindScopeLaunchConfig {
  const name = 'program' in target ? target.program.split('/').pop() : target.cell.split('/').pop();
  return {
    type: DEBUG_TYPE,
    request: 'launch',
    name: `Debug in PyNative: ${name ?? ''}`,
    ...target,
  };
}

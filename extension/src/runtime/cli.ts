// The runtime CLI's command lines and its one-line JSON status. Pure, unit-tested.

export type TargetCommand = 'graph' | 'profile' | 'stats';

export type InputSource =
  | { kind: 'shapes'; specs: string[] }
  | { kind: 'function'; file: string; name: string };

export interface TargetRun {
  /** `export` writes a folder (`output`), not a document in the run store. */
  command: TargetCommand | 'export';
  file: string;
  name: string;
  inputs: InputSource;
  output: string;
  extra?: string[];
}

export interface RuntimeError {
  kind: string;
  message: string;
  file?: string | null;
  line?: number | null;
  rule?: string | { code?: string } | null;
}

export interface RuntimeStatus {
  ok: boolean;
  command?: string;
  output?: string;
  summary?: Record<string, unknown>;
  error?: RuntimeError;
  seconds?: number;
}

/** The runtime is run as a module: `python -m mindscope_runtime <args>` (see pythonChild). */
export const RUNTIME_MODULE = 'mindscope_runtime';

export function targetArgs(run: TargetRun): string[] {
  const args: string[] = [run.command, `${run.file}:${run.name}`];
  if (run.inputs.kind === 'shapes') {
    for (const spec of run.inputs.specs) args.push('--input', spec);
  } else {
    args.push('--inputs-from', `${run.inputs.file}:${run.inputs.name}`);
  }
  args.push('-o', run.output, ...(run.extra ?? []));
  return args;
}

export interface DistRun {
  file: string;
  workers: number;
  output: string;
  scriptArgs: string[];
}

/** `profile-dist SCRIPT --workers N -o OUT -- script args`. */
export function distArgs(run: DistRun): string[] {
  const args = ['profile-dist', run.file, '--workers', String(run.workers)];
  args.push('-o', run.output);
  return run.scriptArgs.length ? [...args, '--', ...run.scriptArgs] : args;
}

export function mindirArgs(file: string, output: string): string[] {
  return ['mindir', file, '-o', output];
}

export function onnxArgs(file: string, output: string): string[] {
  return ['onnx', file, '-o', output];
}

/** The status is the last stdout line that is a JSON object with an `ok` field. */
export function parseStatus(stdout: string): RuntimeStatus | undefined {
  const lines = stdout.split(/\r?\n/).filter((l) => l.trim().startsWith('{'));
  for (const line of lines.reverse()) {
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === 'object' && value !== null && 'ok' in value) {
        return value as RuntimeStatus;
      }
    } catch {
      // Not the status line: the model may print JSON-looking text too.
    }
  }
  return undefined;
}

/** "[mindscope 1.2s] compiling ResNet" → "compiling ResNet"; other stderr lines → undefined. */
export function progressText(line: string): string | undefined {
  const match = /^\[mindscope [\d.]+s\]\s*(.+)$/.exec(line.trim());
  return match?.[1];
}

export function ruleCode(error: RuntimeError): string | undefined {
  const rule = error.rule;
  if (!rule) return undefined;
  return typeof rule === 'string' ? rule : rule.code;
}

/** One line for a notification: the message, the rule and where in the user's code. */
export function describeError(error: RuntimeError): string {
  const code = ruleCode(error);
  const where = error.file ? ` (${error.file.split('/').pop() ?? error.file}:${error.line ?? '?'})` : '';
  return `${error.message}${code ? ` [${code}]` : ''}${where}`;
}

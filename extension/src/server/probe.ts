// Asks an interpreter, before the server starts, whether it can run the server at all, so the
// user gets one clear message instead of a crashed client.
import { execPythonChild } from '../python/spawn';

export type ProbeResult =
  | { kind: 'ok'; version: string }
  | { kind: 'not-found'; message: string }
  | { kind: 'missing-packages'; version: string; packages: string[] }
  | { kind: 'failed'; message: string };

export function interpretProbe(
  error: (Error & { code?: string | number | null }) | null,
  stdout: string,
  stderr: string,
): ProbeResult {
  if (error && error.code === 'ENOENT') {
    return { kind: 'not-found', message: error.message };
  }
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed = JSON.parse(line) as { python?: unknown; missing?: unknown };
    const version = typeof parsed.python === 'string' ? parsed.python : 'unknown';
    const missing = Array.isArray(parsed.missing)
      ? parsed.missing.filter((m): m is string => typeof m === 'string')
      : [];
    return missing.length
      ? { kind: 'missing-packages', version, packages: missing }
      : { kind: 'ok', version };
  } catch {
    const detail = (stderr.trim().split('\n').pop() ?? '') || error?.message || 'no output';
    return { kind: 'failed', message: detail };
  }
}

export function probeInterpreter(
  python: string,
  env: NodeJS.ProcessEnv,
  extensionPath: string,
  timeoutMs = 20000,
): Promise<ProbeResult> {
  const probe = { python, extensionPath, module: 'mindscope_ls', args: ['--probe'], env };
  return execPythonChild({ ...probe, role: 'static' }, { timeoutMs }).then(
    ({ error, stdout, stderr }) => interpretProbe(error, stdout, stderr),
  );
}

export function installCommand(python: string, packages: readonly string[]): string {
  const quote = (s: string) => (/^[\w./@=<>-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [quote(python), '-m', 'pip', 'install', ...packages.map(quote)].join(' ');
}

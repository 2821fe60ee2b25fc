// Finds the line where a MindSpore script starts distributed training: `init()` from
// mindspore.communication or `set_auto_parallel_context(...)`. Pure, unit-tested.

const CALL = /^\s*(?:[\w.]+\.)?(init|set_auto_parallel_context)\s*\(/;

/** 0-based line of the first such call, or undefined (also for a file without mindspore). */
export function distributedCallLine(text: string): number | undefined {
  if (!/\bmindspore\b/.test(text)) return undefined;
  const lines = text.split(/\r?\n/);
  let inInit = false;
  for (const [i, line] of lines.entries()) {
    // `def init(...)` or a method named init is not the collective init.
    if (/^\s*def\s/.test(line)) inInit = /^\s*def\s+(init|__init__)\b/.test(line);
    const match = CALL.exec(line);
    if (!match || inInit) continue;
    if (match[1] === 'set_auto_parallel_context' || /\binit\b/.test(importedNames(text))) return i;
  }
  return undefined;
}

/** The names imported from mindspore.communication (where `init` comes from). */
function importedNames(text: string): string {
  const found = /from\s+mindspore\.communication(?:\.management)?\s+import\s+\(?([^)\n]+)/.exec(
    text,
  );
  return found?.[1] ?? '';
}

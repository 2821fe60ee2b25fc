// The language server's `mindscope/fileMode` request (schemas/file-mode.schema.json, version 1):
// the execution mode, syntax level and compiled functions of a Python file or notebook.
// Lines are 0-based, as in LSP.

export const FILE_MODE_METHOD = 'mindscope/fileMode';

export type {
  FileModeParams,
  ExecutionMode,
  SyntaxLevel,
  SourceLocation,
  CompiledFunction,
  FileMode,
} from './generated/fileMode';
import type { FileMode } from './generated/fileMode';

/** The answer as the client trusts it: version 1 with the fields the status bar reads. */
export function isFileMode(value: unknown): value is FileMode {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof FileMode, unknown>>;
  return (
    v.version === 1 &&
    typeof v.mode === 'string' &&
    typeof v.level === 'string' &&
    typeof v.compiledFunctions === 'number' &&
    Array.isArray(v.modeChoices) &&
    Array.isArray(v.compiled)
  );
}

// The language server's `mindscope/fileMode` request (schemas/file-mode.schema.json, version 1):
// the execution mode, syntax level and compiled functions of a Python file or notebook.
// Lines are 0-based, as in LSP.

export const FILE_MODE_METHOD = 'mindscope/fileMode';

export interface FileModeParams {
  /** A file (or untitled) URI, or for a notebook the notebook's URI. */
  uri: string;
  /** Notebooks only: the code cells' URIs in notebook order. */
  cells?: string[];
}

export type ExecutionMode = 'GRAPH_MODE' | 'PYNATIVE_MODE';
export type SyntaxLevel = 'STRICT' | 'COMPATIBLE' | 'LAX';

export interface SourceLocation {
  uri: string;
  line: number;
  /** The call's source, whitespace collapsed, at most 80 characters. */
  text: string;
}

export interface CompiledFunction {
  name: string;
  kind: 'construct' | 'jit' | 'callee';
  uri: string;
  line: number;
}

export interface FileMode {
  version: 1;
  /** UNKNOWN: set from a value known only at run time (see modeChoices). */
  mode: ExecutionMode | 'UNKNOWN';
  modeSource: 'file' | 'default';
  modeChoices: ExecutionMode[];
  modeAt: SourceLocation | null;
  modeSetCount: number;
  level: SyntaxLevel;
  levelSource: 'file' | 'setting';
  levelAt: SourceLocation | null;
  compiledFunctions: number;
  /** At most 200, in source order; compiledFunctions counts all. */
  compiled: CompiledFunction[];
  /** false: some text did not parse and was read with its failing lines blanked. */
  parsed: boolean;
}

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

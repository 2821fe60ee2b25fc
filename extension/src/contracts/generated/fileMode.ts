// Generated from schemas/file-mode.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

export type ExecutionMode = 'GRAPH_MODE' | 'PYNATIVE_MODE';
export type SyntaxLevel = 'STRICT' | 'COMPATIBLE' | 'LAX';

/**
 * The answer of the language server's `mindscope/fileMode` request (params: `$defs/params`): the execution mode a Python file or notebook sets, its jit_syntax_level and the functions MindSpore compiles in it. Static analysis only: nothing is imported or run. The server answers null when the params carry no uri. Lines are 0-based, as in LSP positions.
 */
export interface FileMode {
  version: 1;
  /**
   * The mode of the last `set_context(mode=...)` in the file (notebook: in cell order); PYNATIVE_MODE, MindSpore 2.x's default, when nothing sets it; UNKNOWN when the value is only known at run time (see modeChoices).
   */
  mode: 'GRAPH_MODE' | 'PYNATIVE_MODE' | 'UNKNOWN';
  /**
   * `file`: a `set_context(mode=...)` in the file; `default`: none, MindSpore's default applies.
   */
  modeSource: 'file' | 'default';
  /**
   * The modes the winning call may set: one for a constant, two for `A if cond else B`, none when unknown.
   */
  modeChoices: ExecutionMode[];
  /**
   * The winning `set_context(mode=...)` call; null when nothing sets the mode.
   */
  modeAt: SourceLocation | null;
  /**
   * How many `set_context(mode=...)` calls the file (notebook) holds.
   */
  modeSetCount: number;
  level: SyntaxLevel;
  /**
   * `file`: `jit_syntax_level=` of `set_context`/`JitConfig`/`set_jit_config` or `MS_DEV_JIT_SYNTAX_LEVEL` in the file; `setting`: the `mindscope.graphMode.syntaxLevel` setting (default LAX, MindSpore's own default).
   */
  levelSource: 'file' | 'setting';
  /**
   * Where the file sets the level; null when the setting applies.
   */
  levelAt: SourceLocation | null;
  /**
   * How many functions of this file MindSpore compiles: Cell.construct, @jit / ms.jit(f) functions and what they call (as the graph-mode checker discovers them).
   */
  compiledFunctions: number;
  /**
   * The compiled functions in source order, at most 200 (compiledFunctions counts all).
   */
  compiled: CompiledFunction[];
  /**
   * false when some text did not parse and was read with its failing lines blanked (a half-typed file).
   */
  parsed: boolean;
}
export interface SourceLocation {
  /**
   * The file, or the notebook cell.
   */
  uri: string;
  line: number;
  /**
   * The call's source, whitespace collapsed, at most 80 characters.
   */
  text: string;
}
export interface CompiledFunction {
  /**
   * `Class.method` or `function`.
   */
  name: string;
  /**
   * `construct` of a Cell (compiled in GRAPH_MODE), a `jit` function (compiled in both modes) or a `callee` of those.
   */
  kind: 'construct' | 'jit' | 'callee';
  uri: string;
  line: number;
}

export interface FileModeParams {
  /**
   * The document: a file (or untitled) URI, or for a notebook the notebook's URI.
   */
  uri: string;
  /**
   * Notebooks only: the URIs of the code cells in notebook order (their text is what the client synced).
   */
  cells?: string[];
}

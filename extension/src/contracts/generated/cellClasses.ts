// Generated from schemas/cell-classes.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

/**
 * The answer of the language server's `mindscope/cellClasses` request (params: `$defs/params`): the nn.Cell subclasses of a Python file or notebook cell, found by the checker's class table (static only: nothing is imported or run), in source order. The extension's CodeLens and Cell commands read it. Broken code, a missing file or bad params give an empty list, never an error. Lines and characters are 0-based, as in LSP positions.
 */
export interface CellClassesResult {
  cells: CellClassInfo[];
}
export interface CellClassInfo {
  /**
   * The class name.
   */
  name: string;
  /**
   * The `class` statement.
   */
  line: number;
  /**
   * Column of `class` on its line, in code points.
   */
  character: number;
  /**
   * The last line of the class body.
   */
  endLine: number;
  kind: 'cell';
}

export interface CellClassesParams {
  textDocument: {
    uri: string;
  };
}

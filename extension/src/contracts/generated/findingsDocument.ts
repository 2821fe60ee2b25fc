// Generated from schemas/findings-document.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

/**
 * The graph-mode checker's findings on a notebook cell or a Cell class, as shown by %ms_check (application/vnd.mindscope.findings+json). Lines are 1-based lines of the cell or of the file the class is defined in.
 */
export interface FindingsDocument {
  kind: 'mindscope.findings';
  version: 1;
  level: 'LAX' | 'COMPATIBLE' | 'STRICT';
  /**
   * `this cell` or the checked name
   */
  subject: string;
  findings: Finding[];
}
export interface Finding {
  /**
   * MS101, MS301, …
   */
  code: string;
  message: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  group:
    | 'fails-at-level'
    | 'fails-under-strict'
    | 'diverges-from-pynative'
    | 'deprecated-api'
    | 'performance'
    | 'parse';
  line: number;
  col: number;
  endLine: number;
  endCol: number;
  /**
   * docs/rules/<code>.md
   */
  doc: string;
}

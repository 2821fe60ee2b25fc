// The language server's `mindscope/cellClasses` request: the nn.Cell subclasses of a Python
// file, found by the checker's discovery (static only). Lines and characters are 0-based, as
// in LSP. Version 1 (no schema yet: L1 adds the server side; keep the two in step).

export const CELL_CLASSES_METHOD = 'mindscope/cellClasses';

export interface CellClassesParams {
  textDocument: { uri: string };
}

export interface CellClassInfo {
  name: string;
  /** The `class` statement. */
  line: number;
  character: number;
  /** The last line of the class body. */
  endLine: number;
  kind: 'cell';
}

export interface CellClassesResult {
  cells: CellClassInfo[];
}

function isCellClassInfo(value: unknown): value is CellClassInfo {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.name === 'string' &&
    typeof c.line === 'number' &&
    typeof c.character === 'number' &&
    typeof c.endLine === 'number' &&
    c.kind === 'cell'
  );
}

export function isCellClassesResult(value: unknown): value is CellClassesResult {
  if (typeof value !== 'object' || value === null) return false;
  const cells = (value as { cells?: unknown }).cells;
  return Array.isArray(cells) && cells.every(isCellClassInfo);
}

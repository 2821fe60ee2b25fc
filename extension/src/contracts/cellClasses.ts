// The language server's `mindscope/cellClasses` request (schemas/cell-classes.schema.json,
// version 1): the nn.Cell subclasses of a Python file, found by the checker's discovery (static
// only). Lines and characters are 0-based, as in LSP.

export const CELL_CLASSES_METHOD = 'mindscope/cellClasses';

export type { CellClassesParams, CellClassInfo, CellClassesResult } from './generated/cellClasses';
import type { CellClassInfo, CellClassesResult } from './generated/cellClasses';

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

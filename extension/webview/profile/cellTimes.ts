// Pure: which Cells the "Time per Cell" chart shows, and each one's time per call.
import type { CellRow } from '../../src/contracts/profileDocument';

/** Scopes the CPU backend gives kernels it makes at launch (`Expand/_InplaceAddExt`): not
 * Cells. Documents written since the runtime folds them into their Cells have none. */
const BACKEND_ROOTS = new Set(['Expand']);

/** The Cells one level below the root, by total time (self + descendants). */
export function topCells(cells: readonly CellRow[]): CellRow[] {
  const depth = (p: string): number => (p ? p.split('/').length : 0);
  const real = cells.filter((c) => !BACKEND_ROOTS.has(c.scope.split('/')[0] ?? ''));
  const min = Math.min(...real.map((c) => depth(c.scope)));
  const level = real.filter((c) => depth(c.scope) === min + 1);
  return [...level].sort((a, b) => b.totalMs - a.totalMs);
}

/** Time per call: the runtime's `perCallMs` (total over the Cell's real call count); older
 * documents only have the calls of the Cell's own ops, which a container lacks: per step. */
export function perCallMs(cell: CellRow, steps: number): number {
  if (cell.perCallMs !== undefined) return cell.perCallMs;
  const calls = cell.calls > 0 ? cell.calls : steps;
  return cell.totalMs / Math.max(1, calls);
}

/** How many calls the per-call figure divides by, for the bar's tooltip. */
export function callCount(cell: CellRow, steps: number): number {
  return cell.callCount ?? (cell.calls > 0 ? cell.calls : Math.max(1, steps));
}

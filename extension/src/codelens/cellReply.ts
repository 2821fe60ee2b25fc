// Reading the server's `mindscope/cellClasses` answer (cellFinder.ts). Pure, unit-tested.
import { isCellClassesResult } from '../contracts/cellClasses';
import type { CellClass } from './cellClasses';

/** JSON-RPC's "method not found": a server that predates the request. */
const METHOD_NOT_FOUND = -32601;

/** The server's cells, or undefined when its answer is not a cellClasses result. */
export function cellsFromReply(reply: unknown): CellClass[] | undefined {
  if (!isCellClassesResult(reply)) return undefined;
  return reply.cells.map((c) => ({ name: c.name, line: c.line, endLine: c.endLine }));
}

export function isMethodNotFound(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === METHOD_NOT_FOUND;
}

// Search by op name, op type and shape. Pure, unit-tested.
import { formatShape } from '../common/format';
import type { GraphIndex } from './model';

/** Text a node is found by: names, type, and its output shapes in both spellings. */
export function searchText(index: GraphIndex, id: string): string {
  const input = index.inputs.get(id);
  if (input) return `${input.name} input ${shapeTerms(input.shape)}`.toLowerCase();
  const n = index.nodes.get(id);
  if (!n) return '';
  const shapes = n.outputs.map((o) => shapeTerms(o.shape)).join(' ');
  return `${n.name} ${n.fullName} ${n.opType} ${n.instanceName ?? ''} ${shapes}`.toLowerCase();
}

function shapeTerms(shape: number[] | null | undefined): string {
  if (!shape) return '';
  return `${formatShape(shape)} ${shape.join(',')} ${shape.join('x')} (${shape.join(', ')})`;
}

/**
 * Ids of the shown nodes matching every whitespace-separated term of `query`
 * (case-insensitive substrings). An empty query matches nothing.
 */
export function search(index: GraphIndex, query: string): string[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!terms.length) return [];
  return index.shown.filter((id) => {
    const text = searchText(index, id);
    return terms.every((t) => text.includes(t));
  });
}

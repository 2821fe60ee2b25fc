// The previous layout, kept for comparison (bench/, `data-layout="whole"`): ELK's layered
// layout of the whole visible graph at once, open Cells as compound nodes.
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { runElk } from './elk';
import type { VisibleGraph } from '../fold';
import type { Layout, Rect } from './geometry';
import { layoutInput } from './layoutInput';
import type { GraphIndex } from '../model';

export async function layoutWhole(index: GraphIndex, graph: VisibleGraph): Promise<Layout> {
  const start = performance.now();
  const input = layoutInput(index, graph);
  input.layoutOptions = {
    ...input.layoutOptions,
    'elk.json.shapeCoords': 'ROOT',
    'elk.json.edgeCoords': 'ROOT',
  };
  const result = (await runElk(input)) as ElkNode;
  const groupIds = new Set(graph.groups.map((g) => g.id));
  const items = new Map<string, Rect>();
  const groups = new Map<string, Rect>();
  const visit = (n: ElkNode): void => {
    for (const c of n.children ?? []) {
      const rect = { x: c.x ?? 0, y: c.y ?? 0, width: c.width ?? 0, height: c.height ?? 0 };
      (groupIds.has(c.id) ? groups : items).set(c.id, rect);
      visit(c);
    }
  };
  visit(result);
  const edges = (result.edges ?? []).map((e: ElkExtendedEdge, i) => {
    const source = graph.edges[i];
    return {
      from: source?.from ?? '',
      to: source?.to ?? '',
      count: source?.count ?? 1,
      points: edgePoints(e),
    };
  });
  return {
    items,
    groups,
    edges,
    width: result.width ?? 0,
    height: result.height ?? 0,
    ms: performance.now() - start,
  };
}

function edgePoints(e: ElkExtendedEdge): [number, number][] {
  const points: [number, number][] = [];
  for (const s of e.sections ?? []) {
    points.push([s.startPoint.x, s.startPoint.y]);
    for (const b of s.bendPoints ?? []) points.push([b.x, b.y]);
    points.push([s.endPoint.x, s.endPoint.y]);
  }
  return points;
}

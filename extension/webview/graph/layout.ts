// Runs ELK's layered layout on a visible graph and returns absolute geometry.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { VisibleGraph } from './fold';
import { layoutInput, ROOT_ID } from './layoutInput';
import type { GraphIndex } from './model';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutEdge {
  from: string;
  to: string;
  count: number;
  points: [number, number][];
}

export interface Layout {
  items: Map<string, Rect>;
  groups: Map<string, Rect>;
  edges: LaidOutEdge[];
  width: number;
  height: number;
  ms: number;
}

const elk = new ELK();

export async function layoutGraph(index: GraphIndex, graph: VisibleGraph): Promise<Layout> {
  const start = performance.now();
  const input = layoutInput(index, graph);
  input.layoutOptions = {
    ...input.layoutOptions,
    'elk.json.shapeCoords': 'ROOT',
    'elk.json.edgeCoords': 'ROOT',
  };
  const result = await elk.layout(input);
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

export { ROOT_ID };

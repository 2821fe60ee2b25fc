// Turns a visible graph into the input of ELK's layered algorithm: compound nodes for the
// expanded scopes, so that each Cell's ops stay together in one box. Pure, unit-tested.
import type { VisibleGraph, VisibleItem } from '../fold';
import { GROUP_HEADER, itemLabel, labelWidth, NODE_HEIGHT } from '../labels';
import type { GraphIndex } from '../model';

export interface ElkNodeInput {
  id: string;
  width?: number;
  height?: number;
  layoutOptions?: Record<string, string>;
  children?: ElkNodeInput[];
  edges?: ElkEdgeInput[];
}

export interface ElkEdgeInput {
  id: string;
  sources: string[];
  targets: string[];
}

export const ROOT_ID = '__root__';

export const ROOT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.layered.thoroughness': '1',
  'elk.edgeRouting': 'POLYLINE',
  'elk.spacing.nodeNode': '18',
  'elk.layered.spacing.nodeNodeBetweenLayers': '26',
  'elk.spacing.edgeNode': '10',
};

export const GROUP_OPTIONS: Record<string, string> = {
  'elk.padding': `[top=${GROUP_HEADER + 8},left=10,bottom=10,right=10]`,
};

export function layoutInput(index: GraphIndex, graph: VisibleGraph): ElkNodeInput {
  const root: ElkNodeInput = { id: ROOT_ID, layoutOptions: ROOT_OPTIONS, children: [] };
  const containers = new Map<string, ElkNodeInput>();
  for (const g of graph.groups) {
    containers.set(g.id, { id: g.id, layoutOptions: GROUP_OPTIONS, children: [] });
  }
  const place = (parent: string | null, node: ElkNodeInput): void => {
    const container = (parent && containers.get(parent)) || root;
    container.children?.push(node);
  };
  // Groups nest in their parent groups; the order follows `groups` (any order is fine).
  for (const g of graph.groups) {
    const node = containers.get(g.id);
    if (node) place(g.parent, node);
  }
  for (const item of graph.items) {
    place(item.parent, { id: item.id, ...itemSize(index, item) });
  }
  root.edges = graph.edges.map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] }));
  return root;
}

/** The box a visible item is drawn in. */
export function itemSize(index: GraphIndex, item: VisibleItem): { width: number; height: number } {
  return { width: labelWidth(itemLabel(index, item), item.kind === 'scope'), height: NODE_HEIGHT };
}

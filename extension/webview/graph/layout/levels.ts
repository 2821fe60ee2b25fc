// Splits a visible graph into layout levels: the top level and one per open Cell, each holding
// its direct children (ops, folded Cells, and inner open Cells as plain boxes), the edges between
// them, and one port per child and direction where edges cross the Cell's border. Each level is
// laid out on its own (layoutLevels.ts), so a level whose content did not change is reused
// instead of laying out the whole visible graph again. Pure, unit-tested.
import type { VisibleGraph } from '../fold';

/**
 * A port of an open Cell: where the edges from or to its child `item` (an item, or an open
 * Cell holding the item the edge really ends at) cross its border. Keyed by the child, not the
 * innermost item, a Cell keeps its ports when a Cell inside it opens, so the levels above only
 * change in size.
 */
export interface PortRef {
  item: string;
  /** true: edges leave the Cell (bottom side); false: they enter it (top side). */
  out: boolean;
}

/** An end of a level edge: a child of the level, or a port of a child or of the level itself. */
export interface LevelEnd {
  node: string;
  port?: PortRef;
}

export interface LevelEdge {
  from: LevelEnd;
  to: LevelEnd;
}

export interface Level {
  /** The open Cell laid out here; null for the top level. */
  id: string | null;
  depth: number;
  /** Direct children in data-flow order (first appearance among the visible items). */
  children: string[];
  /** The children that are open Cells, laid out at their own level. */
  groups: Set<string>;
  /** Children with edges from outside, in first-use order: one top port each. */
  inPorts: string[];
  /** Children with edges to outside: one bottom port each. */
  outPorts: string[];
  edges: LevelEdge[];
}

export interface LevelPlan {
  /** Deepest first: a level only needs the sizes of levels before it. */
  levels: Level[];
  byId: Map<string | null, Level>;
  /**
   * For each visible edge (same order as `graph.edges`), the level edges its drawn path is
   * made of, from source to target: up out of the source's Cells, across, down into the target's.
   */
  routes: { level: Level; edge: number }[][];
}

export function planLevels(graph: VisibleGraph): LevelPlan {
  const parentOf = new Map<string, string | null>();
  for (const g of graph.groups) parentOf.set(g.id, g.parent);
  for (const i of graph.items) parentOf.set(i.id, i.parent);
  const byId = new Map<string | null, Level>();
  const level = (id: string | null): Level => {
    let l = byId.get(id);
    if (!l) {
      l = { id, depth: 0, children: [], groups: new Set(), inPorts: [], outPorts: [], edges: [] };
      byId.set(id, l);
    }
    return l;
  };
  level(null);
  const isGroup = new Set(graph.groups.map((g) => g.id));
  const placed = new Set<string>();
  for (const item of graph.items) {
    // Place the item and every Cell around it that is not placed yet, innermost first.
    for (
      let x: string | null = item.id;
      x !== null && !placed.has(x);
      x = parentOf.get(x) ?? null
    ) {
      placed.add(x);
      const l = level(parentOf.get(x) ?? null);
      l.children.push(x);
      if (isGroup.has(x)) l.groups.add(x);
    }
  }
  const path = (id: string): string[] => {
    const p = [id];
    for (let x = parentOf.get(id) ?? null; x !== null; x = parentOf.get(x) ?? null) p.push(x);
    return p;
  };
  const edgeIndex = new Map<Level, Map<string, number>>();
  const addEdge = (l: Level, from: LevelEnd, to: LevelEnd): { level: Level; edge: number } => {
    let index = edgeIndex.get(l);
    if (!index) edgeIndex.set(l, (index = new Map<string, number>()));
    const key = `${endKey(from)}\u0001${endKey(to)}`;
    let i = index.get(key);
    if (i === undefined) {
      i = l.edges.push({ from, to }) - 1;
      index.set(key, i);
    }
    return { level: l, edge: i };
  };
  const addPort = (l: Level, item: string, out: boolean): void => {
    const ports = out ? l.outPorts : l.inPorts;
    if (!ports.includes(item)) ports.push(item);
  };
  // An end of an edge as seen from the level of path[k]: the item itself, or the port of the
  // Cell on its path just below that level for the child on the path below that.
  const endAt = (p: string[], k: number, out: boolean): LevelEnd =>
    k === 1 ? { node: p[0] ?? '' } : { node: p[k - 1] ?? '', port: { item: p[k - 2] ?? '', out } };
  const routes = graph.edges.map((e) => {
    const a = path(e.from);
    const b = path(e.to);
    const inB = new Set(b);
    // a[k] for k ≥ 1 are the Cells around the source; the first also around the target is the
    // level both ends are in (k = a.length: the top level).
    let k = 1;
    while (k < a.length && !inB.has(a[k] ?? '')) k++;
    const common = k < a.length ? (a[k] ?? null) : null;
    const j = common === null ? b.length : b.indexOf(common);
    const route: { level: Level; edge: number }[] = [];
    for (let u = 1; u < k; u++) {
      const cell = a[u] ?? '';
      const item = a[u - 1] ?? '';
      const l = level(cell);
      addPort(l, item, true);
      route.push(addEdge(l, endAt(a, u, true), { node: cell, port: { item, out: true } }));
    }
    route.push(addEdge(level(common), endAt(a, k, true), endAt(b, j, false)));
    for (let u = j - 1; u >= 1; u--) {
      const cell = b[u] ?? '';
      const item = b[u - 1] ?? '';
      const l = level(cell);
      addPort(l, item, false);
      route.push(addEdge(l, { node: cell, port: { item, out: false } }, endAt(b, u, false)));
    }
    return route;
  });
  const depthOf = (id: string | null): number => (id === null ? 0 : path(id).length);
  for (const l of byId.values()) l.depth = depthOf(l.id);
  const levels = [...byId.values()].sort((x, y) => y.depth - x.depth);
  return { levels, byId, routes };
}

function endKey(e: LevelEnd): string {
  return e.port ? `${e.node}\u0000${e.port.out ? 'o' : 'i'}\u0000${e.port.item}` : e.node;
}

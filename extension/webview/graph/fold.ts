// Folding by Cell scope: which items are visible for a set of expanded scopes, how they nest,
// and the edges between them. Pure, unit-tested.
import type { GraphIndex, ScopeInfo } from './model';

export type VisibleItem =
  | { kind: 'op'; id: string; parent: string | null }
  | { kind: 'input'; id: string; parent: null }
  | { kind: 'scope'; id: string; parent: string | null };

export interface VisibleGraph {
  items: VisibleItem[];
  /** Expanded scopes that hold visible items, drawn as boxes; parent null at top level. */
  groups: { id: string; parent: string | null }[];
  /** Deduplicated edges between visible item ids, with how many op edges each stands for. */
  edges: { from: string; to: string; count: number }[];
}

/** The first view: root scopes open, then single-child chains, so the model's Cells show. */
export function initialExpansion(index: GraphIndex): Set<string> {
  const expanded = new Set<string>();
  const open = (path: string): void => {
    expanded.add(path);
    const scope = index.scopes.get(path);
    if (!scope) return;
    const children = scope.children.filter((c) => (index.scopes.get(c)?.shownOps ?? 0) > 0);
    const only = children[0];
    if (children.length === 1 && only && directOps(index, path) === 0) open(only);
  };
  for (const r of index.roots) open(r);
  return expanded;
}

function directOps(index: GraphIndex, path: string): number {
  return index.scopes.get(path)?.directOps ?? 0;
}

/**
 * The visible item standing for a scope path: the outermost collapsed scope on it, or null
 * when every scope on the path is expanded.
 */
export function collapsedAncestor(
  index: GraphIndex,
  scope: string,
  expanded: ReadonlySet<string>,
  cache: Map<string, string | null>,
): string | null {
  if (!scope) return null;
  const hit = cache.get(scope);
  if (hit !== undefined) return hit;
  const parent = index.scopes.get(scope)?.parent ?? null;
  const above = parent ? collapsedAncestor(index, parent, expanded, cache) : null;
  const open = expanded.has(scope) || opensWithParent(index, scope);
  const result = above ?? (open ? null : scope);
  cache.set(scope, result);
  return result;
}

/**
 * Leaf Cells of up to three ops (a Dense, a ReLU used twice) show their ops as soon as their
 * parent is open: folded, they would only hide data flow (a reused ReLU folds into a cycle).
 */
export function opensWithParent(index: GraphIndex, scope: string): boolean {
  const s = index.scopes.get(scope);
  return s !== undefined && isSmallLeaf(index.scopes, s);
}

export function isSmallLeaf(scopes: ReadonlyMap<string, ScopeInfo>, s: ScopeInfo): boolean {
  return (
    s.shownOps <= 1 ||
    (s.shownOps <= 3 && s.children.every((c) => (scopes.get(c)?.shownOps ?? 0) === 0))
  );
}

/**
 * Such small leaf Cells are drawn as their ops, without a box of their own: a box would be a
 * single node to the layout, and a Cell used twice (one ReLU after two layers) would then
 * turn the data flow into a cycle.
 */
export function isTransparent(index: GraphIndex, scope: string): boolean {
  return opensWithParent(index, scope);
}

/** The box an op or folded Cell is drawn in: the nearest enclosing Cell that is not transparent. */
export function displayParent(index: GraphIndex, scope: string | null): string | null {
  let s = scope;
  while (s && isTransparent(index, s)) s = index.scopes.get(s)?.parent ?? null;
  return s || null;
}

export function visibleGraph(index: GraphIndex, expanded: ReadonlySet<string>): VisibleGraph {
  const cache = new Map<string, string | null>();
  const rep = new Map<string, string>();
  const items: VisibleItem[] = [];
  const scopeItems = new Set<string>();
  const usedGroups = new Set<string>();
  // Many ops share a scope: find each scope's box once.
  const boxes = new Map<string, string | null>();
  const boxOf = (scope: string): string | null => {
    let box = boxes.get(scope);
    if (box === undefined) boxes.set(scope, (box = displayParent(index, scope)));
    return box;
  };
  const parentOf = (scope: string): string | null => {
    const parent = index.scopes.get(scope)?.parent ?? null;
    return parent === null ? null : boxOf(parent);
  };
  for (const id of index.shown) {
    if (index.inputs.has(id)) {
      items.push({ kind: 'input', id, parent: null });
      rep.set(id, id);
      continue;
    }
    const scope = index.nodes.get(id)?.scope ?? '';
    const folded = collapsedAncestor(index, scope, expanded, cache);
    if (folded === null) {
      const parent = boxOf(scope);
      items.push({ kind: 'op', id, parent });
      rep.set(id, id);
      if (parent) usedGroups.add(parent);
    } else {
      rep.set(id, folded);
      if (!scopeItems.has(folded)) {
        scopeItems.add(folded);
        const parent = parentOf(folded);
        items.push({ kind: 'scope', id: folded, parent });
        if (parent) usedGroups.add(parent);
      }
    }
  }
  // Every ancestor of a used group is a group too.
  for (const g of [...usedGroups]) {
    for (let p = parentOf(g); p; p = parentOf(p)) usedGroups.add(p);
  }
  const groups = [...usedGroups].map((id) => ({ id, parent: parentOf(id) }));
  const counts = new Map<string, Map<string, { from: string; to: string; count: number }>>();
  const edges: { from: string; to: string; count: number }[] = [];
  for (const [a, b] of index.edges) {
    const from = rep.get(a);
    const to = rep.get(b);
    if (!from || !to || from === to) continue;
    let out = counts.get(from);
    if (!out)
      counts.set(from, (out = new Map<string, { from: string; to: string; count: number }>()));
    const e = out.get(to);
    if (e) e.count++;
    else {
      const edge = { from, to, count: 1 };
      out.set(to, edge);
      edges.push(edge);
    }
  }
  return { items, groups, edges };
}

/** Expanding a scope also expands its ancestors, so that it is really visible. */
export function withExpanded(
  index: GraphIndex,
  expanded: ReadonlySet<string>,
  scopes: Iterable<string>,
): Set<string> {
  const next = new Set(expanded);
  for (const s of scopes) {
    for (let p: string | null = s; p; p = index.scopes.get(p)?.parent ?? null) next.add(p);
  }
  return next;
}

export function withCollapsed(expanded: ReadonlySet<string>, scope: string): Set<string> {
  const next = new Set<string>();
  for (const s of expanded) if (s !== scope && !s.startsWith(`${scope}/`)) next.add(s);
  return next;
}

export function allScopes(index: GraphIndex): Set<string> {
  return new Set(index.scopes.keys());
}

/**
 * "Expand all", bounded: opens scopes breadth-first while the number of visible items stays
 * within `limit`, so that a 10,000-op graph never asks for one enormous layout.
 */
export function expandWithin(
  index: GraphIndex,
  expanded: ReadonlySet<string>,
  limit: number,
): Set<string> {
  const next = new Set(expanded);
  let frontier = [...index.roots];
  let visible = visibleGraph(index, next).items.length;
  while (frontier.length) {
    const deeper: string[] = [];
    for (const path of frontier) {
      const scope = index.scopes.get(path);
      if (!scope || scope.shownOps === 0) continue;
      if (!next.has(path)) {
        // Opening a scope replaces its one item by its direct children and ops.
        const added = directItems(index, path) - 1;
        if (visible + added > limit) continue;
        next.add(path);
        visible += added;
      }
      deeper.push(...scope.children);
    }
    frontier = deeper;
  }
  return next;
}

/** The boxes a scope's level holds when it is open: its ops, and its Cells (transparent ones as their ops). */
export function directItems(index: GraphIndex, path: string): number {
  const scope = index.scopes.get(path);
  if (!scope) return 0;
  let items = directOps(index, path);
  for (const c of scope.children) {
    const child = index.scopes.get(c);
    if (!child?.shownOps) continue;
    items += isTransparent(index, c) ? child.shownOps : 1;
  }
  return items;
}

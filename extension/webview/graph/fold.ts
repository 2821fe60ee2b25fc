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

/**
 * The index as numbers, built once per index (on the first fold): each shown id's position in
 * `index.shown`, its scope's number, and the edges as pairs of positions. Folding then walks
 * arrays instead of looking every op and edge up by its string id (a 50,000-op graph: ~50,000
 * ops and as many edges per open).
 */
interface DenseIndex {
  /** Scope number of each shown id (position in `index.shown`); -1: an input or no scope. */
  opScope: Int32Array;
  isInput: Uint8Array;
  /** Every scope path: the index's, and any an op or a parent names that it lacks. */
  scopes: string[];
  scopeNumber: Map<string, number>;
  /** Parent scope number; -1 at the top. */
  scopeParent: Int32Array;
  /** 1: a Cell that opens with its parent (`opensWithParent`). */
  transparent: Uint8Array;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
}

const denseIndexes = new WeakMap<GraphIndex, DenseIndex>();

function denseIndex(index: GraphIndex): DenseIndex {
  const known = denseIndexes.get(index);
  if (known) return known;
  const n = index.shown.length;
  const position = new Map<string, number>();
  const scopeNumber = new Map<string, number>();
  const scopes: string[] = [];
  const number = (path: string): number => {
    let k = scopeNumber.get(path);
    if (k === undefined) {
      k = scopes.length;
      scopeNumber.set(path, k);
      scopes.push(path);
    }
    return k;
  };
  for (const path of index.scopes.keys()) number(path);
  const opScope = new Int32Array(n);
  const isInput = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const id = index.shown[i] ?? '';
    position.set(id, i);
    if (index.inputs.has(id)) {
      isInput[i] = 1;
      opScope[i] = -1;
      continue;
    }
    const scope = index.nodes.get(id)?.scope ?? '';
    opScope[i] = scope ? number(scope) : -1;
  }
  // (the list may grow while this runs: a parent the index lacks is numbered too)
  const parents: number[] = [];
  for (let k = 0; k < scopes.length; k++) {
    const parent = index.scopes.get(scopes[k] ?? '')?.parent ?? null;
    parents.push(parent ? number(parent) : -1);
  }
  const scopeParent = Int32Array.from(parents);
  const transparent = Uint8Array.from(scopes, (path) => (opensWithParent(index, path) ? 1 : 0));
  const edgeFrom = new Int32Array(index.edges.length);
  const edgeTo = new Int32Array(index.edges.length);
  index.edges.forEach(([a, b], k) => {
    edgeFrom[k] = position.get(a) ?? -1;
    edgeTo[k] = position.get(b) ?? -1;
  });
  const dense = {
    opScope,
    isInput,
    scopes,
    scopeNumber,
    scopeParent,
    transparent,
    edgeFrom,
    edgeTo,
  };
  denseIndexes.set(index, dense);
  return dense;
}

/**
 * `collapsedAncestor` for every scope number at once, memoized: the number of the outermost
 * folded Cell on the scope's path, or -1 when every Cell on it is open.
 */
function foldedAbove(dense: DenseIndex, expanded: ReadonlySet<string>): (k: number) => number {
  const { scopeNumber, scopeParent, transparent } = dense;
  const open = new Uint8Array(scopeParent.length);
  for (const path of expanded) {
    const k = scopeNumber.get(path);
    if (k !== undefined) open[k] = 1;
  }
  const known = new Int32Array(scopeParent.length).fill(-2);
  const path: number[] = [];
  return (k) => {
    let c = k;
    while (c >= 0 && known[c] === -2) {
      path.push(c);
      c = scopeParent[c] ?? -1;
    }
    let above = c < 0 ? -1 : (known[c] ?? -1);
    for (let s = path.pop(); s !== undefined; s = path.pop()) {
      if (above === -1 && !open[s] && !transparent[s]) above = s;
      known[s] = above;
    }
    return known[k] ?? -1;
  };
}

export function visibleGraph(index: GraphIndex, expanded: ReadonlySet<string>): VisibleGraph {
  const dense = denseIndex(index);
  const { opScope, isInput, scopes, edgeFrom, edgeTo } = dense;
  const n = opScope.length;
  const folds = foldedAbove(dense, expanded);
  const items: VisibleItem[] = [];
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
  // What each op stands as: its own position (drawn), or n + the number of the folded Cell
  // that holds it. Per scope number: -1 not known yet, -2 open (its ops are drawn).
  const rep = new Int32Array(n);
  const scopeRep = new Int32Array(scopes.length).fill(-1);
  const scopeBox: (string | null)[] = new Array<string | null>(scopes.length).fill(null);
  /** Folded Cells in the order they first appear, and their numbers. */
  const folded: string[] = [];
  const foldedNumber = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (isInput[i]) {
      items.push({ kind: 'input', id: index.shown[i] ?? '', parent: null });
      rep[i] = i;
      continue;
    }
    const k = opScope[i] ?? -1;
    let r = k < 0 ? -2 : (scopeRep[k] ?? -1);
    if (r === -1) {
      const scope = scopes[k] ?? '';
      const c = folds(k);
      const outer = c < 0 ? null : (scopes[c] ?? null);
      if (outer === null) {
        r = -2;
        scopeBox[k] = boxOf(scope);
      } else {
        let f = foldedNumber.get(outer);
        if (f === undefined) {
          // Its first op: the folded Cell's item comes here, as the ops' order has it.
          f = folded.length;
          foldedNumber.set(outer, f);
          folded.push(outer);
          const parent = parentOf(outer);
          items.push({ kind: 'scope', id: outer, parent });
          if (parent) usedGroups.add(parent);
        }
        r = n + f;
      }
      scopeRep[k] = r;
    }
    if (r === -2) {
      const parent = k < 0 ? null : (scopeBox[k] ?? null);
      items.push({ kind: 'op', id: index.shown[i] ?? '', parent });
      rep[i] = i;
      if (parent) usedGroups.add(parent);
    } else rep[i] = r;
  }
  // Every ancestor of a used group is a group too.
  for (const g of [...usedGroups]) {
    for (let p = parentOf(g); p; p = parentOf(p)) usedGroups.add(p);
  }
  const groups = [...usedGroups].map((id) => ({ id, parent: parentOf(id) }));
  const idOf = (r: number): string => (r < n ? (index.shown[r] ?? '') : (folded[r - n] ?? ''));
  const span = n + folded.length;
  const byPair = new Map<number, { from: string; to: string; count: number }>();
  const edges: { from: string; to: string; count: number }[] = [];
  for (let k = 0; k < edgeFrom.length; k++) {
    const a = edgeFrom[k] ?? -1;
    const b = edgeTo[k] ?? -1;
    if (a < 0 || b < 0) continue;
    const from = rep[a] ?? -1;
    const to = rep[b] ?? -1;
    if (from === to) continue;
    const key = from * span + to;
    const e = byPair.get(key);
    if (e) e.count++;
    else {
      const edge = { from: idOf(from), to: idOf(to), count: 1 };
      byPair.set(key, edge);
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

// Wide Cells are split into parts: a Cell with more direct items (ops, and Cells inside it)
// than one level should hold — a 134-wide fan, or the 2,022 ops a `.mindir` keeps in the first
// of several equal Layers — gets folded parts of at most `limit` items each, in data-flow
// order, nested again when the parts are too many. Each part is a Cell of its own to the view
// ("part 3/26 · 80 ops"): drawn folded, opened with a double-click, so no level the layout
// sees ever holds more than about `limit` boxes. Pure, unit-tested.
import type { GraphNode } from '../../src/contracts/graphDocument';
import type { ScopeInfo } from './model';

/** Direct items per Cell before it is split into parts. */
export const WIDE_LIMIT = 100;

/** Path segment of a part: `~part3` (a name no Cell attribute can have). */
const PART = '~part';

export interface SplitScopes {
  scopes: Map<string, ScopeInfo>;
  /** Ops whose scope changed (now inside a part), with their new scope. */
  moved: Map<string, string>;
}

/** A scope or op to place in the new tree, with how many boxes it adds to its level. */
interface Unit {
  scope?: string;
  op?: string;
  weight: number;
}

/**
 * `scopes` as built from the document (counts filled in), `ops` the shown ops in data-flow
 * order, `transparent` the Cells drawn as their own ops (they weigh their op count). A Cell
 * keeps its path unless it moves into a part (`a/~part2/b`), and so do the ops in it.
 */
export function splitWideScopes(
  scopes: ReadonlyMap<string, ScopeInfo>,
  ops: readonly GraphNode[],
  transparent: (s: ScopeInfo) => boolean,
  limit = WIDE_LIMIT,
): SplitScopes {
  const weigh = (c: string): number => {
    const s = scopes.get(c);
    return !s || s.shownOps === 0 ? 0 : transparent(s) ? s.shownOps : 1;
  };
  const weight = (s: ScopeInfo): number => s.children.reduce((a, c) => a + weigh(c), s.directOps);
  // Most graphs have no wide Cell: keep their tree as it is.
  if (![...scopes.values()].some((s) => weight(s) > limit))
    return { scopes: new Map(scopes), moved: new Map() };
  const position = new Map(ops.map((o, i) => [o.id, i]));
  const scopeOfOp = new Map(ops.map((o) => [o.id, o.scope]));
  const opsOf = new Map<string, string[]>();
  // Where each Cell's first op is: a child Cell is ordered there among its siblings.
  const first = new Map<string, number>();
  ops.forEach((op, i) => {
    const list = opsOf.get(op.scope);
    if (list) list.push(op.id);
    else opsOf.set(op.scope, [op.id]);
    for (let p: string | null = op.scope; p && !first.has(p); p = scopes.get(p)?.parent ?? null)
      first.set(p, i);
  });
  const out = new Map<string, ScopeInfo>();
  const moved = new Map<string, string>();
  const place = (old: ScopeInfo, path: string, parent: string | null): void => {
    const info: ScopeInfo = { ...old, path, parent, children: [], shownOps: 0, directOps: 0 };
    out.set(path, info);
    const units: (Unit & { at: number })[] = [
      ...old.children.map((c) => ({ scope: c, weight: weigh(c), at: first.get(c) ?? Infinity })),
      ...(opsOf.get(old.path) ?? []).map((op) => ({ op, weight: 1, at: position.get(op) ?? 0 })),
    ];
    units.sort((a, b) => a.at - b.at);
    const total = units.reduce((a, u) => a + u.weight, 0);
    if (total <= limit) for (const u of units) adopt(info, u);
    else addParts(info, nest(chunk(units, limit), limit));
  };
  const adopt = (into: ScopeInfo, u: Unit): void => {
    if (u.op !== undefined) {
      if (into.path !== scopeOfOp.get(u.op)) moved.set(u.op, into.path);
      return;
    }
    const child = scopes.get(u.scope ?? '');
    if (!child) return;
    const path = `${into.path}/${lastSegment(child.path)}`;
    into.children.push(path);
    place(child, path, into.path);
  };
  const addParts = (into: ScopeInfo, parts: Part[]): void => {
    parts.forEach((part, i) => {
      const path = `${into.path}/${PART}${i + 1}`;
      const info: ScopeInfo = {
        path,
        name: `part ${i + 1}/${parts.length}`,
        cellType: null,
        parent: into.path,
        children: [],
        paramCount: 0,
        shownOps: 0,
        directOps: 0,
      };
      out.set(path, info);
      into.children.push(path);
      if (Array.isArray(part)) addParts(info, part);
      else for (const u of part.units) adopt(info, u);
    });
  };
  for (const s of scopes.values()) if (s.parent === null) place(s, s.path, null);
  // Counts again, on the new tree.
  for (const op of ops) {
    const scope = moved.get(op.id) ?? op.scope;
    const own = out.get(scope);
    if (own) own.directOps++;
    for (let p: string | null = scope; p; p = out.get(p)?.parent ?? null) {
      const s = out.get(p);
      if (s) s.shownOps++;
    }
  }
  for (const s of out.values()) {
    if (!s.path.includes(`/${PART}`)) continue;
    s.paramCount = s.children.reduce((a, c) => a + (out.get(c)?.paramCount ?? 0), 0);
  }
  return { scopes: out, moved };
}

/** A part: its units, or the parts it is split into when the parts are too many. */
type Part = { units: Unit[] } | Part[];

/** Consecutive units in parts of about equal weight, none over `limit`. */
function chunk(units: Unit[], limit: number): { units: Unit[] }[] {
  const total = units.reduce((a, u) => a + u.weight, 0);
  const target = Math.ceil(total / Math.ceil(total / limit));
  const parts: { units: Unit[] }[] = [];
  let current: Unit[] = [];
  let weight = 0;
  for (const u of units) {
    if (current.length && weight + u.weight > target) {
      parts.push({ units: current });
      current = [];
      weight = 0;
    }
    current.push(u);
    weight += u.weight;
  }
  if (current.length) parts.push({ units: current });
  return parts;
}

function nest(parts: Part[], limit: number): Part[] {
  if (parts.length <= limit) return parts;
  const size = Math.ceil(parts.length / Math.ceil(parts.length / limit));
  const grouped: Part[] = [];
  for (let i = 0; i < parts.length; i += size) grouped.push(parts.slice(i, i + size));
  return nest(grouped, limit);
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether a scope path is a part made by the split (not a Cell of the model). */
export function isPart(path: string): boolean {
  return lastSegment(path).startsWith(PART);
}

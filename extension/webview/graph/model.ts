// Indexes a graph document for drawing: which ops are shown, the data flow between them with
// bookkeeping ops (Load, TupleGetItem, UpdateState…) contracted away, and the Cell scope tree.
// Pure: no DOM, unit-tested.
import type {
  GraphDocument,
  GraphNode,
  GraphParameter,
  ScopeNode,
} from '../../src/contracts/graphDocument';
import { isSmallLeaf } from './fold';
import { firstInstances, repairSharedScopes } from './sharedScopes';
import { splitWideScopes } from './wideScopes';

export { repairSharedScopes } from './sharedScopes';

export interface ScopeInfo {
  path: string;
  name: string;
  cellType: string | null;
  parent: string | null;
  children: string[];
  paramCount: number;
  /** Shown ops in this scope and below. */
  shownOps: number;
  /** Shown ops directly in this scope. */
  directOps: number;
}

export interface GraphIndex {
  doc: GraphDocument;
  nodes: Map<string, GraphNode>;
  /** Ids of the ops drawn (compute ops; all ops with `showAux`), plus model inputs. */
  shown: string[];
  shownSet: Set<string>;
  inputs: Map<string, GraphParameter>;
  /** Data flow between shown ids, aux ops contracted. */
  edges: [string, string][];
  /** Weights each shown op reads through contracted ops. */
  weights: Map<string, GraphParameter[]>;
  scopes: Map<string, ScopeInfo>;
  roots: string[];
  patternKind: Map<string, string>;
}

export interface IndexOptions {
  showAux?: boolean;
}

export function indexGraph(doc: GraphDocument, options: IndexOptions = {}): GraphIndex {
  const nodes = new Map(doc.nodes.map((n) => [n.id, n]));
  const params = new Map(doc.parameters.map((p) => [p.id, p]));
  const isShownOp = (n: GraphNode): boolean =>
    options.showAux === true || n.category === 'compute' || n.category === 'cell';
  const inputs = new Map<string, GraphParameter>();
  for (const p of doc.parameters) if (p.kind === 'input' && p.graph === null) inputs.set(p.id, p);
  const shown = [...inputs.keys(), ...doc.nodes.filter(isShownOp).map((n) => n.id)];
  const shownSet = new Set(shown);
  const { edges, weights } = contract(doc, shownSet, params);
  // Documents from this runtime re-home shared ops themselves (meta.rehomedOps, from the IR's
  // source chains); the data-flow guess below is for older documents, and for `.mindir` files
  // (no source chains) in which the runtime moved nothing.
  const rehomed = doc.meta.rehomedOps;
  if (rehomed === undefined || (rehomed === 0 && doc.meta.capture === 'mindir')) {
    const first = firstInstances(doc.scopes);
    const readsWeight = (id: string): boolean => (weights.get(id)?.length ?? 0) > 0;
    for (const n of repairSharedScopes(nodes, edges, { first, readsWeight })) nodes.set(n.id, n);
  }
  const shownOps = shown.map((id) => nodes.get(id)).filter((n) => n !== undefined);
  const built = buildScopes(doc.scopes, shownOps);
  const { scopes, moved } = splitWideScopes(built, shownOps, (s) => isSmallLeaf(built, s));
  for (const [id, scope] of moved) {
    const n = nodes.get(id);
    if (n) nodes.set(id, { ...n, scope });
  }
  const roots = [...scopes.values()].filter((s) => s.parent === null).map((s) => s.path);
  const patternKind = new Map<string, string>();
  for (const p of doc.patterns) for (const id of p.nodes) patternKind.set(id, p.kind);
  return { doc, nodes, shown, shownSet, inputs, edges, weights, scopes, roots, patternKind };
}

function contract(
  doc: GraphDocument,
  shown: Set<string>,
  params: Map<string, GraphParameter>,
): { edges: [string, string][]; weights: Map<string, GraphParameter[]> } {
  const preds = new Map<string, string[]>();
  for (const e of doc.edges) {
    if (e.kind === 'control') continue;
    const list = preds.get(e.to);
    if (list) list.push(e.from);
    else preds.set(e.to, [e.from]);
  }
  // For a hidden id: the shown ids and weights it reads, through other hidden ids (memoized).
  const memo = new Map<string, Reach>();
  const visiting = new Set<string>();
  const reach = (id: string): Reach => {
    const cached = memo.get(id);
    if (cached) return cached;
    const result: Reach = { sources: [], weights: [] };
    if (visiting.has(id)) return result;
    visiting.add(id);
    const sources = new Set<string>();
    const weights = new Set<string>();
    for (const p of preds.get(id) ?? []) {
      if (shown.has(p)) sources.add(p);
      else if (params.get(p)?.kind === 'weight') weights.add(p);
      else {
        const r = reach(p);
        for (const s of r.sources) sources.add(s);
        for (const w of r.weights) weights.add(w);
      }
    }
    visiting.delete(id);
    result.sources = [...sources];
    result.weights = [...weights];
    memo.set(id, result);
    return result;
  };
  const edges: [string, string][] = [];
  const weights = new Map<string, GraphParameter[]>();
  for (const to of shown) {
    const ps = preds.get(to);
    if (!ps) continue;
    const from: string[] = [];
    const ws: string[] = [];
    for (const p of ps) {
      if (shown.has(p)) from.push(p);
      else if (params.get(p)?.kind === 'weight') ws.push(p);
      else {
        const r = reach(p);
        from.push(...r.sources);
        ws.push(...r.weights);
      }
    }
    const unique = from.length > 1 ? [...new Set(from)] : from;
    for (const f of unique) if (f !== to) edges.push([f, to]);
    if (ws.length) {
      const list: GraphParameter[] = [];
      for (const w of ws.length > 1 ? new Set(ws) : ws) {
        const param = params.get(w);
        if (param) list.push(param);
      }
      weights.set(to, list);
    }
  }
  return { edges, weights };
}

interface Reach {
  sources: string[];
  weights: string[];
}

function buildScopes(tree: ScopeNode[], ops: GraphNode[]): Map<string, ScopeInfo> {
  const scopes = new Map<string, ScopeInfo>();
  const add = (s: ScopeNode, parent: string | null): void => {
    scopes.set(s.path, {
      path: s.path,
      name: s.name,
      cellType: s.cellType,
      parent,
      children: s.children.map((c) => c.path),
      paramCount: s.paramCount,
      shownOps: 0,
      directOps: 0,
    });
    for (const c of s.children) add(c, s.path);
  };
  for (const s of tree) add(s, null);
  // Scopes that ops name but the tree lacks (e.g. Gradients/…): made from the path.
  for (const op of ops) ensureScope(scopes, op.scope);
  for (const op of ops) {
    const own = scopes.get(op.scope);
    if (own) own.directOps++;
    for (let path: string | null = op.scope; path; path = scopes.get(path)?.parent ?? null) {
      const s = scopes.get(path);
      if (s) s.shownOps++;
    }
  }
  return scopes;
}

function ensureScope(scopes: Map<string, ScopeInfo>, path: string): void {
  if (!path || scopes.has(path)) return;
  const slash = path.lastIndexOf('/');
  const parent = slash > 0 ? path.slice(0, slash) : null;
  if (parent) ensureScope(scopes, parent);
  const last = path.slice(slash + 1);
  const dash = last.lastIndexOf('-');
  scopes.set(path, {
    path,
    name: dash > 0 ? last.slice(0, dash) : last,
    cellType: dash > 0 ? last.slice(dash + 1) : null,
    parent,
    children: [],
    paramCount: 0,
    shownOps: 0,
    directOps: 0,
  });
  if (parent) scopes.get(parent)?.children.push(path);
}

/** The scope an id is drawn in: the op's scope; inputs sit outside every scope. */
export function scopeOf(index: GraphIndex, id: string): string {
  return index.nodes.get(id)?.scope ?? '';
}

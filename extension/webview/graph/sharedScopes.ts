// MindSpore compiles a construct shared by several instances of one Cell class once, and names
// the ops it makes outside any sub-Cell, or in a sub-Cell that only calls a function (a GeLU),
// after the first instance: all twelve GeLUs of a ViT land in `blocks.0.mlp.act`, all 2,500
// residual Adds of a stack in its first block. Documents from the runtime's IR capture re-home
// such ops themselves (`meta.rehomedOps`); for the others (`.mindir` files, older documents)
// the view moves them by data flow, as below. Pure, unit-tested.
import type { GraphNode, ScopeNode } from '../../src/contracts/graphDocument';

/** Segments `name-Class` of a scope path. */
function segments(scope: string): string[] {
  return scope ? scope.split('/') : [];
}

function cellClass(segment: string): string {
  const dash = segment.lastIndexOf('-');
  return dash > 0 ? segment.slice(dash + 1) : '';
}

/**
 * Whether the scope `prefix/segment` is the first child of its parent among those of its
 * class in the scope tree: the instance MindSpore names a shared construct's ops after.
 */
export function firstInstances(tree: readonly ScopeNode[]): Set<string> {
  const first = new Set<string>();
  const visit = (children: readonly ScopeNode[]): void => {
    const seen = new Set<string>();
    for (const c of children) {
      const type = cellClass(c.path.slice(c.path.lastIndexOf('/') + 1));
      if (type && !seen.has(type)) {
        seen.add(type);
        first.add(c.path);
      }
      visit(c.children);
    }
  };
  visit(tree);
  return first;
}

/**
 * The scope an op in `own` would have in the instance `other` runs in: wherever the two paths
 * name two instances of one class, the op's being a first instance, the other's is taken; the
 * rest of the op's path is kept (`blocks/0-Block/mlp-Mlp/act-GELU` seen from
 * `blocks/5-Block/mlp-Mlp/fc1-Dense` is `blocks/5-Block/mlp-Mlp/act-GELU`; nested stacks swap
 * every level: `s/0-Stage/0-Layer/0-Block` seen from `s/3-Stage/7-Layer/12-Block/act-ReLU` is
 * `s/3-Stage/7-Layer/12-Block`). `own` when the paths do not differ that way.
 */
export function counterpart(own: string, other: string, first: ReadonlySet<string>): string {
  const a = segments(own);
  const b = segments(other);
  const out: string[] = [];
  let j = 0;
  for (; j < a.length && j < b.length; j++) {
    const mine = a[j] ?? '';
    const theirs = b[j] ?? '';
    if (mine === theirs) out.push(mine);
    else if (
      cellClass(mine) &&
      cellClass(mine) === cellClass(theirs) &&
      first.has(a.slice(0, j + 1).join('/'))
    )
      out.push(theirs);
    else break;
  }
  return [...out, ...a.slice(j)].join('/');
}

/**
 * Ops to move, with their new scope. An op that reads no weight (weights name their instance
 * truly) moves to the instance all its producers from other scopes run in; failing that, to
 * the instance of the same class its consumers all sit in (the Cell of the consumers or its
 * parent: `out + identity` of a ResNet block feeds that block's ReLU).
 */
export function repairSharedScopes(
  nodes: ReadonlyMap<string, GraphNode>,
  edges: readonly [string, string][],
  options: { readsWeight?: (id: string) => boolean; first?: ReadonlySet<string> } = {},
): GraphNode[] {
  const producers = new Map<string, string[]>();
  const consumers = new Map<string, string[]>();
  for (const [from, to] of edges) {
    push(producers, to, from);
    push(consumers, from, to);
  }
  const repaired: GraphNode[] = [];
  for (const id of new Set([...producers.keys(), ...consumers.keys()])) {
    const node = nodes.get(id);
    if (!node) continue;
    const target =
      (options.first && !options.readsWeight?.(id)
        ? byProducers(node, producers.get(id) ?? [], nodes, options.first)
        : undefined) ?? byConsumers(node, consumers.get(id) ?? [], nodes);
    if (target && target !== node.scope) repaired.push({ ...node, scope: target });
  }
  return repaired;
}

function byProducers(
  node: GraphNode,
  from: string[],
  nodes: ReadonlyMap<string, GraphNode>,
  first: ReadonlySet<string>,
): string | undefined {
  const own = node.scope;
  let target: string | undefined;
  for (const p of from) {
    const scope = nodes.get(p)?.scope;
    // Inputs, and ops named after the same first instance, say nothing.
    if (scope === undefined || scope === own) continue;
    // A producer inside the op's Cell or around it keeps the op where it is (most ops: cheap).
    if (scope.startsWith(`${own}/`) || own.startsWith(`${scope}/`)) return undefined;
    const vote = counterpart(own, scope, first);
    if (vote === own || (target !== undefined && vote !== target)) return undefined;
    target = vote;
  }
  return target;
}

function byConsumers(
  node: GraphNode,
  outs: string[],
  nodes: ReadonlyMap<string, GraphNode>,
): string | undefined {
  const type = cellClass(node.scope.slice(node.scope.lastIndexOf('/') + 1));
  if (!type || !outs.length) return undefined;
  const scopes = new Set(outs.map((o) => nodes.get(o)?.scope ?? ''));
  const [only] = scopes;
  if (scopes.size !== 1 || !only) return undefined;
  const parent = only.slice(0, Math.max(0, only.lastIndexOf('/')));
  const target = [only, parent].find(
    (s) => s && cellClass(s.slice(s.lastIndexOf('/') + 1)) === type,
  );
  if (target && target !== node.scope && !node.scope.startsWith(`${target}/`)) return target;
  return undefined;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// visibleGraph on the index as numbers (fold.ts): the same items, groups and edges, in the same
// order, as the straightforward fold by string ids it replaced (fixtures/referenceFold.ts), on
// every folding a session reaches. How much faster it is: bench/graph_fold.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  expandWithin,
  initialExpansion,
  visibleGraph,
  withCollapsed,
  withExpanded,
} from '../../extension/webview/graph/fold';
import { indexGraph, type GraphIndex } from '../../extension/webview/graph/model';
import { referenceFold } from './fixtures/referenceFold';
import { synthGraph } from './fixtures/synthGraph';
import { synthStack } from './fixtures/synthStack';

/** Foldings a session reaches: the first view, each Cell opened one by one (depth first, up
 * to `limit`), Expand all, everything open, and some folded back. */
function foldings(index: GraphIndex, limit: number): Set<string>[] {
  const out: Set<string>[] = [];
  let open = initialExpansion(index);
  out.push(open);
  const todo = [...index.roots];
  while (todo.length && out.length < limit) {
    const path = todo.shift() ?? '';
    open = withExpanded(index, open, [path]);
    out.push(open);
    todo.unshift(...(index.scopes.get(path)?.children ?? []));
  }
  out.push(expandWithin(index, initialExpansion(index), 600));
  out.push(new Set(index.scopes.keys()));
  const [someRoot] = index.roots;
  if (someRoot) out.push(withCollapsed(open, someRoot));
  for (const path of [...open].slice(0, 5)) out.push(withCollapsed(open, path));
  return out;
}

const documents = {
  'transformer (2×3 layers)': () => indexGraph(synthGraph(2, 3)),
  'transformer, aux ops shown': () => indexGraph(synthGraph(1, 2), { showAux: true }),
  'stack with a 300-way fan (wide Cells split)': () => indexGraph(synthStack(2, 3, 4, 300)),
  'stack, shared ops re-homed': () => indexGraph(synthStack(2, 2, 3)),
};

for (const [name, make] of Object.entries(documents)) {
  test(`numbered fold = reference fold: ${name}`, () => {
    const index = make();
    for (const expanded of foldings(index, 40)) {
      // Twice: the numbered index is built on the first call and reused after.
      assert.deepEqual(visibleGraph(index, expanded), referenceFold(index, expanded));
      assert.deepEqual(visibleGraph(index, expanded), referenceFold(index, expanded));
    }
  });
}

test('an op with no scope and an edge to an id not shown fold as before', () => {
  const index = indexGraph(synthGraph(1, 1));
  const [op] = index.shown.filter((id) => !index.inputs.has(id));
  const node = op ? index.nodes.get(op) : undefined;
  assert.ok(op && node);
  const patched: GraphIndex = {
    ...index,
    nodes: new Map([...index.nodes, [op, { ...node, scope: '' }]]),
    edges: [...index.edges, [op, 'not-shown'], ['not-shown', op]],
  };
  for (const expanded of foldings(patched, 10))
    assert.deepEqual(visibleGraph(patched, expanded), referenceFold(patched, expanded));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  expandWithin,
  initialExpansion,
  visibleGraph,
  withCollapsed,
  withExpanded,
} from '../../extension/webview/graph/fold';
import { layoutInput, type ElkNodeInput } from '../../extension/webview/graph/layout/layoutInput';
import { indexGraph, repairSharedScopes } from '../../extension/webview/graph/model';
import type { GraphNode } from '../../extension/src/contracts/graphDocument';
import { search } from '../../extension/webview/graph/search';
import { synthGraph } from './fixtures/synthGraph';

const doc = synthGraph(2, 3);

test('aux ops are contracted away and their weights attach to the op that reads them', () => {
  const index = indexGraph(doc);
  const shownTypes = new Set(index.shown.map((id) => index.nodes.get(id)?.opType ?? 'input'));
  assert.ok(!shownTypes.has('Load') && !shownTypes.has('TupleGetItem'), [...shownTypes].join());
  const firstMatMul = index.shown.find((id) => index.nodes.get(id)?.opType === 'MatMul');
  assert.ok(firstMatMul);
  assert.deepEqual(
    index.weights.get(firstMatMul)?.map((w) => w.name),
    ['embed.weight'],
  );
  // The input feeds the first MatMul directly; a LayerNorm feeds the next Add through a
  // TupleGetItem.
  assert.ok(index.edges.some(([a, b]) => a === '%para_x' && b === firstMatMul));
  const add = index.shown.filter((id) => index.nodes.get(id)?.opType === 'Add')[1];
  assert.ok(index.edges.some(([a, b]) => b === add && index.nodes.get(a)?.opType === 'LayerNorm'));
});

test('showAux keeps every op', () => {
  const index = indexGraph(doc, { showAux: true });
  assert.equal(index.shown.length, doc.nodes.length + 1);
});

test('the first view opens the root and shows its Cells folded', () => {
  const index = indexGraph(doc);
  const expanded = initialExpansion(index);
  assert.deepEqual([...expanded], ['Default']);
  const g = visibleGraph(index, expanded);
  const scopes = g.items.filter((i) => i.kind === 'scope').map((i) => i.id);
  assert.deepEqual(scopes, ['Default/stage0-CellList', 'Default/stage1-CellList']);
  // Single-op Cells are drawn as their op, inside the root's box.
  const embed = g.items.find((i) => index.nodes.get(i.id)?.scope === 'Default/embed-Dense');
  assert.deepEqual(embed && { kind: embed.kind, parent: embed.parent }, {
    kind: 'op',
    parent: 'Default',
  });
  assert.deepEqual(g.groups, [{ id: 'Default', parent: null }]);
  // Folded Cells are chained in data-flow order, each edge once.
  const pairs = g.edges.map((e) => `${e.from}>${e.to}`);
  assert.ok(pairs.includes('Default/stage0-CellList>Default/stage1-CellList'), pairs.join(' '));
  assert.equal(new Set(pairs).size, pairs.length);
});

test('expanding a scope shows its children; collapsing folds it and everything below', () => {
  const index = indexGraph(doc);
  const open = withExpanded(index, initialExpansion(index), [
    'Default/stage0-CellList/1-EncoderLayer',
  ]);
  assert.ok(open.has('Default/stage0-CellList'), 'ancestors open too');
  const g = visibleGraph(index, open);
  const ids = g.items.map((i) => i.id);
  assert.ok(ids.includes('Default/stage0-CellList/0-EncoderLayer'));
  assert.ok(ids.includes('Default/stage0-CellList/1-EncoderLayer/attention-MultiHeadAttention'));
  assert.ok(
    g.items.some((i) => i.kind === 'op' && i.parent === 'Default/stage0-CellList/1-EncoderLayer'),
  );
  const closed = withCollapsed(open, 'Default/stage0-CellList');
  assert.deepEqual([...closed], ['Default']);
});

test('expand all stops before the visible item limit', () => {
  const index = indexGraph(synthGraph(3, 20));
  const expanded = expandWithin(index, initialExpansion(index), 100);
  const n = visibleGraph(index, expanded).items.length;
  assert.ok(n <= 100 && n > 20, String(n));
  const all = expandWithin(index, initialExpansion(index), 1e9);
  assert.equal(visibleGraph(index, all).items.filter((i) => i.kind === 'scope').length, 0);
});

test('the layout input nests groups and sizes every node', () => {
  const index = indexGraph(doc);
  const open = withExpanded(index, initialExpansion(index), ['Default/stage0-CellList']);
  const g = visibleGraph(index, open);
  const root = layoutInput(index, g);
  const find = (n: ElkNodeInput, id: string): ElkNodeInput | undefined =>
    n.id === id ? n : (n.children ?? []).map((c) => find(c, id)).find(Boolean);
  const stage = find(root, 'Default/stage0-CellList');
  assert.equal(stage?.children?.length, 3, 'three folded layers inside the open stage');
  assert.ok(find(root, 'Default')?.children?.some((c) => c.id === 'Default/stage0-CellList'));
  assert.equal(root.edges?.length, g.edges.length);
  const leaves: ElkNodeInput[] = [];
  const walk = (n: ElkNodeInput): void => {
    if (!n.children?.length && n !== root) leaves.push(n);
    n.children?.forEach(walk);
  };
  walk(root);
  assert.equal(leaves.length, g.items.length);
  assert.ok(leaves.every((l) => (l.width ?? 0) >= 80 && l.height === 40));
});

test('search finds ops by type, name and shape, all terms required', () => {
  const index = indexGraph(doc);
  assert.equal(search(index, 'softmax').length, 6);
  assert.equal(search(index, 'Softmax 8x8').length, 6);
  assert.equal(search(index, 'Softmax 8x64').length, 0);
  assert.ok(search(index, 'head-Dense').length >= 1);
  assert.ok(search(index, '8,10').some((id) => index.nodes.get(id)?.opType === 'MatMul'));
  assert.deepEqual(search(index, '   '), []);
});

test('a 10,000-op graph folds to a few items at first (timed in bench/graph_fold.ts)', () => {
  const index = indexGraph(synthGraph(5, 91));
  const g = visibleGraph(index, initialExpansion(index));
  assert.ok(index.shown.length > 10_000, String(index.shown.length));
  assert.ok(g.items.length < 12, String(g.items.length));
});

test('ops of a shared construct move to the Cell instance their data flows into', () => {
  const node = (id: string, scope: string): GraphNode => ({
    id,
    graph: 'g',
    opType: id,
    primitive: id,
    name: id,
    fullName: `${scope}/${id}`,
    scope,
    category: 'compute',
    inputs: [],
    outputs: [],
    attrs: {},
    source: [],
    userSource: null,
    frameworkSource: null,
  });
  const b0 = 'Default/layer1-SequentialCell/0-BasicBlock';
  const b1 = 'Default/layer2-SequentialCell/0-BasicBlock';
  const nodes = new Map(
    [
      node('add0', b0),
      node('relu0', `${b0}/relu-ReLU`),
      // MindSpore names the second block's Add with the first block's scope:
      node('add1', b0),
      node('relu1', `${b1}/relu-ReLU`),
      node('conv', `${b1}/conv1-Conv2d`),
      node('fc', 'Default/fc-Dense'),
    ].map((n) => [n.id, n]),
  );
  const repaired = repairSharedScopes(nodes, [
    ['add0', 'relu0'],
    ['add1', 'relu1'],
    ['relu0', 'conv'],
    ['relu1', 'fc'],
  ]);
  assert.deepEqual(
    repaired.map((n) => [n.id, n.scope]),
    [['add1', b1]],
  );
});

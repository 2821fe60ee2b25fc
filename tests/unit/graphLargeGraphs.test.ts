import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  directItems,
  expandWithin,
  initialExpansion,
  visibleGraph,
  withExpanded,
} from '../../extension/webview/graph/fold';
import { LevelLayouter, type RunElk } from '../../extension/webview/graph/layout/layoutLevels';
import { itemSize } from '../../extension/webview/graph/layout/layoutInput';
import { planLevels } from '../../extension/webview/graph/layout/levels';
import {
  ELK_MAX_CHILDREN,
  overElkBudget,
  rankLayout,
} from '../../extension/webview/graph/layout/rankLayout';
import { runElk } from '../../extension/webview/graph/layout/elk';
import { indexGraph, type GraphIndex } from '../../extension/webview/graph/model';
import {
  counterpart,
  firstInstances,
  repairSharedScopes,
} from '../../extension/webview/graph/sharedScopes';
import { isPart, WIDE_LIMIT } from '../../extension/webview/graph/wideScopes';
import type { GraphNode } from '../../extension/src/contracts/graphDocument';
import { scope } from './fixtures/synthGraph';
import { synthStack } from './fixtures/synthStack';

const BLOCK = (s: number, l: number, k: number): string =>
  `Default/stages-SequentialCell/${s}-SequentialCell/${l}-SequentialCell/${k}-Block`;

test('counterpart: the op path seen from another instance of each Cell class on it', () => {
  const first = firstInstances([
    scope('blocks-CellList', [
      scope('blocks-CellList/0-Block', [scope('blocks-CellList/0-Block/mlp-Mlp')]),
      scope('blocks-CellList/5-Block', [scope('blocks-CellList/5-Block/mlp-Mlp')]),
    ]),
  ]);
  assert.equal(
    counterpart(
      'blocks-CellList/0-Block/mlp-Mlp/act-GELU',
      'blocks-CellList/5-Block/mlp-Mlp/fc1-Dense',
      first,
    ),
    'blocks-CellList/5-Block/mlp-Mlp/act-GELU',
  );
  // Only from a first instance: block 5's own op never moves to block 0.
  assert.equal(
    counterpart(
      'blocks-CellList/5-Block/mlp-Mlp/act-GELU',
      'blocks-CellList/0-Block/mlp-Mlp/fc2-Dense',
      first,
    ),
    'blocks-CellList/5-Block/mlp-Mlp/act-GELU',
  );
  // Cells of different classes are not instances of one construct.
  assert.equal(counterpart('a/0-Block/x-ReLU', 'a/0-Block/fc-Dense', first), 'a/0-Block/x-ReLU');
});

test('a .mindir stack: every residual Add moves from the first block to its own', () => {
  const doc = synthStack(2, 3, 4);
  const index = indexGraph(doc);
  const adds = index.shown.map((id) => index.nodes.get(id)).filter((n) => n?.opType === 'Add');
  assert.equal(adds.length, 2 * 3 * 4);
  let k = 0;
  for (let s = 0; s < 2; s++)
    for (let l = 0; l < 3; l++)
      for (let b = 0; b < 4; b++) assert.equal(adds[k++]?.scope, BLOCK(s, l, b), `add ${k}`);
  // With the repair, each block holds its own four ops.
  assert.equal(index.scopes.get(BLOCK(0, 0, 0))?.shownOps, 4);
  assert.equal(index.scopes.get(BLOCK(1, 2, 3))?.shownOps, 4);
});

test('the repair moves nothing when every op already sits in its own instance', () => {
  const doc = synthStack(1, 2, 3);
  const index = indexGraph(doc);
  const moved = repairSharedScopes(index.nodes, index.edges, {
    first: firstInstances(doc.scopes),
    readsWeight: (id) => (index.weights.get(id)?.length ?? 0) > 0,
  });
  assert.deepEqual(moved, []);
});

test('an op that reads a weight is never moved by its producers', () => {
  const node = (id: string, scopePath: string): GraphNode =>
    ({
      ...synthStack(1, 1, 1).nodes[0],
      id,
      scope: scopePath,
    }) as GraphNode;
  const first = new Set(['L/0-Block']);
  const nodes = new Map(
    [node('relu5', 'L/5-Block/act-ReLU'), node('mm', 'L/0-Block')].map((n) => [n.id, n]),
  );
  const edges: [string, string][] = [['relu5', 'mm']];
  assert.equal(repairSharedScopes(nodes, edges, { first }).length, 1);
  assert.equal(repairSharedScopes(nodes, edges, { first, readsWeight: () => true }).length, 0);
});

function widest(index: GraphIndex): number {
  return Math.max(...[...index.scopes.keys()].map((p) => directItems(index, p)));
}

test('a wide fan is split into folded parts that open like Cells', () => {
  const doc = synthStack(1, 1, 2, 300);
  const index = indexGraph(doc);
  const fan = index.scopes.get('Default/head-Fan');
  assert.ok(fan);
  assert.ok(fan.children.length > 1 && fan.children.every(isPart), fan.children.join());
  assert.equal(fan.shownOps, 301);
  assert.equal(fan.directOps, 0);
  assert.ok(widest(index) <= WIDE_LIMIT, String(widest(index)));
  // Every op is in exactly one part; the parts say which.
  const parts = fan.children.map((c) => index.scopes.get(c));
  assert.equal(
    parts.reduce((a, p) => a + (p?.shownOps ?? 0), 0),
    301,
  );
  assert.match(parts[0]?.name ?? '', /^part 1\/\d+$/);
  // Opened, the fan shows its parts folded; a part opens to its ops.
  const open = withExpanded(index, initialExpansion(index), ['Default/head-Fan']);
  const g = visibleGraph(index, open);
  const shownParts = g.items.filter((i) => i.kind === 'scope' && isPart(i.id));
  assert.equal(shownParts.length, fan.children.length);
  const first = fan.children[0] ?? '';
  const inside = visibleGraph(index, withExpanded(index, open, [first]));
  const ops = inside.items.filter((i) => i.kind === 'op' && i.parent === first);
  assert.equal(ops.length, index.scopes.get(first)?.shownOps);
});

test('parts nest when one level of parts would still be too wide', () => {
  const index = indexGraph(synthStack(1, 1, 1, 12_000));
  assert.ok(widest(index) <= WIDE_LIMIT, String(widest(index)));
  assert.equal(index.scopes.get('Default/head-Fan')?.shownOps, 12_001);
});

test('a 2,500-block stack keeps every level small, folded and with Expand all', () => {
  const index = indexGraph(synthStack(5, 20, 25));
  assert.equal(index.shown.length - index.inputs.size, 10_000);
  assert.ok(widest(index) <= WIDE_LIMIT, String(widest(index)));
  const all = visibleGraph(index, expandWithin(index, initialExpansion(index), 600));
  assert.ok(all.items.length <= 600, String(all.items.length));
  for (const l of planLevels(all).levels) assert.ok(!overElkBudget(l), String(l.id));
});

test('rank layout: rows in data-flow order, wrapped, no overlaps, edges end at the boxes', () => {
  const n = 400;
  const children = Array.from({ length: n }, (_, i) => `c${i}`);
  const level = {
    id: null,
    depth: 0,
    children,
    groups: new Set<string>(),
    inPorts: [],
    outPorts: [],
    // A fan: c0 feeds every other child.
    edges: children.slice(1).map((c) => ({ from: { node: 'c0' }, to: { node: c } })),
  };
  assert.ok(overElkBudget(level));
  const sizes = children.map(() => ({ width: 100, height: 40 }));
  const r = rankLayout({ level, sizes, ports: children.map(() => null), inner: new Map() });
  const top = r.children[0];
  assert.ok(top);
  for (const c of r.children.slice(1)) assert.ok(c.y > top.y + top.height, 'fan below its source');
  assert.ok(r.width < 2600, String(r.width));
  const key = (c: { x: number; y: number }): string => `${c.x},${c.y}`;
  assert.equal(new Set(r.children.map(key)).size, n, 'no two boxes at one place');
  const [start, end] = r.edges[0] ?? [];
  assert.deepEqual(start, [top.x + 50, top.y + 40]);
  assert.deepEqual(end, [(r.children[1]?.x ?? 0) + 50, r.children[1]?.y]);
});

test('ELK never gets a level over its budget', async () => {
  const index = indexGraph(synthStack(1, 1, 1, 2_000));
  // Open the fan and every part in it, as a user would one by one.
  let expanded = withExpanded(index, initialExpansion(index), ['Default/head-Fan']);
  for (const c of index.scopes.get('Default/head-Fan')?.children ?? [])
    expanded = withExpanded(index, expanded, [c]);
  const graph = visibleGraph(index, expanded);
  let biggest = 0;
  const run: RunElk = (input) => {
    const cell = input.children?.[0];
    const n = (input.id === 'root' && cell?.id === 'cell' ? cell.children : input.children)?.length;
    biggest = Math.max(biggest, n ?? 0);
    return runElk(input);
  };
  const items = new Map(graph.items.map((i) => [i.id, i]));
  const size = (id: string): { width: number; height: number } => {
    const item = items.get(id);
    return item ? itemSize(index, item) : { width: 80, height: 40 };
  };
  const layout = await new LevelLayouter(run).layout(graph, size);
  assert.ok(biggest <= ELK_MAX_CHILDREN, String(biggest));
  assert.equal(layout.items.size, graph.items.length);
});

test('a level over the budget is laid out in rows, without ELK', async () => {
  const items = Array.from({ length: 300 }, (_, i) => ({
    kind: 'op' as const,
    id: `o${i}`,
    parent: null,
  }));
  const edges = items.slice(1).map((it) => ({ from: 'o0', to: it.id, count: 1 }));
  const run: RunElk = () => Promise.reject(new Error('ELK was asked'));
  const layout = await new LevelLayouter(run).layout({ items, groups: [], edges }, () => ({
    width: 90,
    height: 40,
  }));
  assert.equal(layout.levels.ranked, 1);
  assert.equal(layout.levels.laidOut, 0);
  assert.equal(layout.edges.length, 299);
  assert.ok(layout.edges.every((e) => e.points.length === 2));
});

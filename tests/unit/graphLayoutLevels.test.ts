import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chainLayout, parallelLayout } from '../../extension/webview/graph/layout/chain';
import { composeLayout } from '../../extension/webview/graph/layout/compose';
import { runElk } from '../../extension/webview/graph/layout/elk';
import {
  initialExpansion,
  visibleGraph,
  withCollapsed,
  withExpanded,
  type VisibleGraph,
} from '../../extension/webview/graph/fold';
import type { Layout } from '../../extension/webview/graph/layout/geometry';
import { LayoutCache } from '../../extension/webview/graph/layout/layoutCache';
import { itemSize } from '../../extension/webview/graph/layout/layoutInput';
import { LevelLayouter, type ItemSize } from '../../extension/webview/graph/layout/layoutLevels';
import { levelInput, type LevelResult } from '../../extension/webview/graph/layout/levelInput';
import { planLevels, type Level } from '../../extension/webview/graph/layout/levels';
import { indexGraph, type GraphIndex } from '../../extension/webview/graph/model';
import { stretchLevel, type LevelShape } from '../../extension/webview/graph/layout/stretch';
import { synthGraph } from './fixtures/synthGraph';
import { synthStack } from './fixtures/synthStack';

const STAGE = 'Default/stage0-CellList';
const LAYER0 = `${STAGE}/0-EncoderLayer`;
const LAYER1 = `${STAGE}/1-EncoderLayer`;

/** in → a → [G: b → c] → d, and in → c (into G from outside, a second way). */
const small: VisibleGraph = {
  items: [
    { kind: 'input', id: 'in', parent: null },
    { kind: 'op', id: 'a', parent: null },
    { kind: 'op', id: 'b', parent: 'G' },
    { kind: 'op', id: 'c', parent: 'G' },
    { kind: 'op', id: 'd', parent: null },
  ],
  groups: [{ id: 'G', parent: null }],
  edges: [
    { from: 'in', to: 'a', count: 1 },
    { from: 'a', to: 'b', count: 1 },
    { from: 'b', to: 'c', count: 1 },
    { from: 'c', to: 'd', count: 2 },
    { from: 'in', to: 'c', count: 1 },
  ],
};

const box = (width = 100, height = 40) => ({ width, height });

function sizer(index: GraphIndex, graph: VisibleGraph): ItemSize {
  const items = new Map(graph.items.map((i) => [i.id, i]));
  return (id) => {
    const item = items.get(id);
    assert.ok(item, id);
    return itemSize(index, item);
  };
}

function level(plan: ReturnType<typeof planLevels>, id: string | null): Level {
  const l = plan.byId.get(id);
  assert.ok(l, String(id));
  return l;
}

test('levels: one per open Cell, children in data-flow order, ports where edges cross', () => {
  const plan = planLevels(small);
  assert.deepEqual(
    plan.levels.map((l) => l.id),
    ['G', null],
    'deepest first',
  );
  const top = level(plan, null);
  const g = level(plan, 'G');
  assert.deepEqual(top.children, ['in', 'a', 'G', 'd']);
  assert.deepEqual([...top.groups], ['G']);
  assert.deepEqual(g.children, ['b', 'c']);
  assert.deepEqual(g.inPorts, ['b', 'c']);
  assert.deepEqual(g.outPorts, ['c']);
  // a → b: a to G's port for b at the top, then from that port to b inside G.
  const route = plan.routes[1]?.map((r) => [r.level.id, r.level.edges[r.edge]]);
  assert.deepEqual(route, [
    [null, { from: { node: 'a' }, to: { node: 'G', port: { item: 'b', out: false } } }],
    ['G', { from: { node: 'G', port: { item: 'b', out: false } }, to: { node: 'b' } }],
  ]);
  // b → c stays inside G; c → d leaves through G's bottom port for c.
  assert.deepEqual(
    plan.routes[2]?.map((r) => r.level.id),
    ['G'],
  );
  assert.deepEqual(
    plan.routes[3]?.map((r) => r.level.id),
    ['G', null],
  );
});

test('ports are per child, so opening a Cell inside keeps the ports of the Cells around it', () => {
  const index = indexGraph(synthGraph(1, 3));
  const open = withExpanded(index, initialExpansion(index), [STAGE]);
  const before = level(planLevels(visibleGraph(index, open)), STAGE);
  const after = level(planLevels(visibleGraph(index, withExpanded(index, open, [LAYER0]))), STAGE);
  assert.deepEqual(after.inPorts, before.inPorts);
  assert.deepEqual(after.outPorts, before.outPorts);
  assert.deepEqual(after.children, before.children);
  assert.ok(after.edges.length > before.edges.length, 'edges now end at the layer ports');
});

test('the cache key is the level content: equal Cells share it, any change is a new key', () => {
  const index = indexGraph(synthGraph(1, 3));
  const base = withExpanded(index, initialExpansion(index), [STAGE]);
  const keyOf = (expanded: Set<string>, id: string): string => {
    const graph = visibleGraph(index, expanded);
    const plan = planLevels(graph);
    return levelInput(level(plan, id), sizer(index, graph), () => {
      throw new Error('no inner Cells open');
    }).key;
  };
  const layer0 = keyOf(withExpanded(index, base, [LAYER0]), LAYER0);
  const layer1 = keyOf(withExpanded(index, base, [LAYER1]), LAYER1);
  assert.equal(layer0, layer1, 'two layers of the same shape');
  assert.doesNotMatch(layer0, /EncoderLayer|%/, 'no model ids in the key: positions only');
  const stage = keyOf(base, STAGE);
  assert.notEqual(stage, layer0);
  // The same level with one child wider is another key.
  const plan = planLevels(small);
  const g = level(plan, 'G');
  const k1 = levelInput(
    g,
    () => box(),
    () => assert.fail(),
  ).key;
  const k2 = levelInput(
    g,
    (id) => box(id === 'c' ? 120 : 100),
    () => assert.fail(),
  ).key;
  assert.notEqual(k1, k2);
  assert.equal(
    levelInput(
      g,
      () => box(),
      () => assert.fail(),
    ).key,
    k1,
  );
});

test('the layout cache drops the least recently used level first', () => {
  const cache = new LayoutCache(2);
  const r = (w: number): LevelResult => ({
    width: w,
    height: 1,
    children: [],
    ports: [],
    edges: [],
  });
  cache.set('a', r(1));
  cache.set('b', r(2));
  assert.equal(cache.get('a')?.width, 1, 'a is now the most recent');
  cache.set('c', r(3));
  assert.equal(cache.has('b'), false);
  assert.equal(cache.has('a'), true);
  assert.equal(cache.has('c'), true);
  assert.equal(cache.size, 2);
  assert.deepEqual([cache.hits, cache.misses], [1, 0]);
  cache.get('b');
  assert.equal(cache.misses, 1);
});

test('composing puts a Cell content at its box and joins an edge at the ports it crosses', () => {
  const plan = planLevels(small);
  const top = level(plan, null);
  const g = level(plan, 'G');
  const results = new Map<string | null, LevelResult>([
    [
      'G',
      {
        width: 120,
        height: 150,
        // b, c
        children: [
          { x: 10, y: 30, width: 100, height: 40 },
          { x: 10, y: 100, width: 100, height: 40 },
        ],
        // in b, in c, out c
        ports: [
          { x: 60, y: 0 },
          { x: 90, y: 0 },
          { x: 60, y: 150 },
        ],
        edges: g.edges.map(() => [
          [0, 0],
          [1, 1],
        ]),
      },
    ],
    [
      null,
      {
        width: 300,
        height: 400,
        children: [
          { x: 0, y: 0, width: 100, height: 40 },
          { x: 0, y: 60, width: 100, height: 40 },
          { x: 200, y: 120, width: 120, height: 150 },
          { x: 0, y: 300, width: 100, height: 40 },
        ],
        ports: [],
        edges: top.edges.map(() => [
          [0, 0],
          [1, 1],
        ]),
      },
    ],
  ]);
  // The a → b pieces: top level a → G port, then G port → b, in G's own coordinates.
  const ab = plan.routes[1] ?? [];
  const [up, down] = ab;
  assert.ok(up && down);
  (results.get(null)?.edges ?? [])[up.edge] = [
    [50, 100],
    [260, 120],
  ];
  (results.get('G')?.edges ?? [])[down.edge] = [
    [60, 0],
    [60, 30],
  ];
  const layout = composeLayout(small, plan, results);
  assert.deepEqual(layout.groups.get('G'), { x: 200, y: 120, width: 120, height: 150 });
  assert.deepEqual(layout.items.get('c'), { x: 210, y: 220, width: 100, height: 40 });
  assert.deepEqual(layout.edges[1]?.points, [
    [50, 100],
    [260, 120],
    [260, 150],
  ]);
  assert.equal(layout.edges[3]?.count, 2);
  assert.deepEqual([layout.width, layout.height], [300, 400]);
});

/** A chain x → m → y laid out by hand: m grows as a Cell opens inside it. */
function chain(): { level: Level; result: LevelResult; shape: LevelShape } {
  const l: Level = {
    id: 'P',
    depth: 1,
    children: ['x', 'm', 'y'],
    groups: new Set(),
    inPorts: ['x'],
    outPorts: ['y'],
    edges: [
      { from: { node: 'P', port: { item: 'x', out: false } }, to: { node: 'x' } },
      { from: { node: 'x' }, to: { node: 'm' } },
      { from: { node: 'm' }, to: { node: 'y' } },
      { from: { node: 'y' }, to: { node: 'P', port: { item: 'y', out: true } } },
    ],
  };
  const result: LevelResult = {
    width: 120,
    height: 190,
    children: [
      { x: 10, y: 20, width: 100, height: 40 },
      { x: 10, y: 80, width: 100, height: 40 },
      { x: 10, y: 140, width: 100, height: 40 },
    ],
    ports: [
      { x: 60, y: 0 },
      { x: 60, y: 190 },
    ],
    edges: [
      [
        [60, 0],
        [60, 20],
      ],
      [
        [60, 60],
        [60, 80],
      ],
      [
        [60, 120],
        [60, 140],
      ],
      [
        [60, 180],
        [60, 190],
      ],
    ],
  };
  const sizes = [box(), box(), box()];
  return {
    level: l,
    result,
    shape: { level: l, sizes, ports: [null, null, null], inner: new Map() },
  };
}

test('stretching: rows below a grown child move down, edges end at its new ports', () => {
  const { level: before, result, shape } = chain();
  const inner: Level = {
    id: 'm',
    depth: 2,
    children: ['m1'],
    groups: new Set(),
    inPorts: ['m1'],
    outPorts: ['m1'],
    edges: [],
  };
  const after: Level = {
    ...before,
    groups: new Set(['m']),
    edges: [
      before.edges[0] ?? assert.fail(),
      { from: { node: 'x' }, to: { node: 'm', port: { item: 'm1', out: false } } },
      { from: { node: 'm', port: { item: 'm1', out: true } }, to: { node: 'y' } },
      before.edges[3] ?? assert.fail(),
    ],
  };
  const next: LevelShape = {
    level: after,
    sizes: [box(), box(200, 140), box()],
    ports: [
      null,
      [
        { x: 100, y: 0 },
        { x: 100, y: 140 },
      ],
      null,
    ],
    inner: new Map([['m', inner]]),
  };
  const s = stretchLevel(shape, result, next);
  assert.ok(s);
  // m grew by 100 × 100 around its middle; everything shifts right by 50 to keep the margin.
  assert.deepEqual(s.children, [
    { x: 60, y: 20, width: 100, height: 40 },
    { x: 10, y: 80, width: 200, height: 140 },
    { x: 60, y: 240, width: 100, height: 40 },
  ]);
  assert.deepEqual([s.width, s.height], [220, 290]);
  assert.deepEqual(s.ports, [
    { x: 110, y: 0 },
    { x: 110, y: 290 },
  ]);
  assert.deepEqual(s.edges[1], [
    [110, 60],
    [110, 80],
  ]);
  assert.deepEqual(s.edges[2], [
    [110, 220],
    [110, 240],
  ]);
});

test('stretching refuses a level whose children or connections changed', () => {
  const { level: before, result, shape } = chain();
  const rewired: LevelShape = {
    ...shape,
    level: { ...before, edges: [...before.edges, { from: { node: 'x' }, to: { node: 'y' } }] },
    sizes: [box(), box(200), box()],
  };
  assert.equal(stretchLevel(shape, result, rewired), undefined);
  const same: LevelShape = { ...shape, sizes: [box(), box(), box()] };
  assert.equal(stretchLevel(shape, result, same), undefined, 'nothing to stretch');
  const other: LevelShape = {
    ...shape,
    level: { ...before, children: ['x', 'n', 'y'] },
    sizes: [box(), box(200), box()],
  };
  assert.equal(stretchLevel(shape, result, other), undefined);
});

test('a plain chain is stacked and centred without ELK; anything else is not a chain', () => {
  const { level: l, shape } = chain();
  const placed = chainLayout({ ...shape, sizes: [box(100), box(200), box(100)] });
  assert.ok(placed);
  assert.deepEqual(
    placed.children.map((r) => [r.x, r.y]),
    [
      [60, 32],
      [10, 98],
      [60, 164],
    ],
  );
  assert.deepEqual([placed.width, placed.height], [220, 214]);
  assert.deepEqual(placed.ports, [
    { x: 110, y: 0 },
    { x: 110, y: 214 },
  ]);
  assert.deepEqual(placed.edges, [
    [
      [110, 0],
      [110, 32],
    ],
    [
      [110, 72],
      [110, 98],
    ],
    [
      [110, 138],
      [110, 164],
    ],
    [
      [110, 204],
      [110, 214],
    ],
  ]);
  const shortcut = { ...l, edges: [...l.edges, { from: { node: 'x' }, to: { node: 'y' } }] };
  assert.equal(chainLayout({ ...shape, level: shortcut }), undefined);
  const reordered = { ...l, children: ['m', 'x', 'y'] };
  assert.equal(chainLayout({ ...shape, level: reordered }), undefined);
});

test('a chain through an open Cell ends its edges at the Cell ports', () => {
  // The top level of a folded model: its input above the root Cell.
  const top: Level = {
    id: null,
    depth: 0,
    children: ['in', 'G'],
    groups: new Set(['G']),
    inPorts: [],
    outPorts: [],
    edges: [
      { from: { node: 'in' }, to: { node: 'G', port: { item: 'a', out: false } } },
      { from: { node: 'in' }, to: { node: 'G', port: { item: 'b', out: false } } },
    ],
  };
  const inner: Level = {
    id: 'G',
    depth: 1,
    children: ['a', 'b'],
    groups: new Set(),
    inPorts: ['a', 'b'],
    outPorts: [],
    edges: [],
  };
  const placed = chainLayout({
    level: top,
    sizes: [box(100), box(300, 200)],
    ports: [
      null,
      [
        { x: 100, y: 0 },
        { x: 200, y: 0 },
      ],
    ],
    inner: new Map([['G', inner]]),
  });
  assert.ok(placed);
  assert.deepEqual(placed.children[1], { x: 12, y: 78, width: 300, height: 200 });
  assert.deepEqual(placed.edges, [
    [
      [162, 52],
      [112, 78],
    ],
    [
      [162, 52],
      [212, 78],
    ],
  ]);
  const twoInputs = { ...top, children: ['in', 'in2', 'G'] };
  assert.equal(
    chainLayout({ level: twoInputs, sizes: [box(), box(), box()], ports: [], inner: new Map() }),
    undefined,
  );
});

/** Every edge starts in its source's box and ends in its target's; boxes nest, never overlap. */
function assertDrawable(graph: VisibleGraph, layout: Layout): void {
  const within = (r: { x: number; y: number; width: number; height: number }, p?: number[]) =>
    p !== undefined &&
    (p[0] ?? NaN) >= r.x - 1 &&
    (p[0] ?? NaN) <= r.x + r.width + 1 &&
    (p[1] ?? NaN) >= r.y - 1 &&
    (p[1] ?? NaN) <= r.y + r.height + 1;
  for (const e of layout.edges) {
    const a = layout.items.get(e.from);
    const b = layout.items.get(e.to);
    assert.ok(a && b && e.points.length >= 2, `${e.from} → ${e.to}`);
    assert.ok(within(a, e.points[0]), `${e.from} → ${e.to} starts at its source`);
    assert.ok(within(b, e.points[e.points.length - 1]), `${e.from} → ${e.to} ends at its target`);
  }
  const rects = graph.items.map((i) => layout.items.get(i.id));
  for (const [i, item] of graph.items.entries()) {
    const r = rects[i];
    assert.ok(r, item.id);
    const g = item.parent === null ? undefined : layout.groups.get(item.parent);
    if (g) {
      assert.ok(r.x >= g.x && r.y >= g.y, `${item.id} inside ${item.parent}`);
      assert.ok(r.x + r.width <= g.x + g.width + 0.01 && r.y + r.height <= g.y + g.height + 0.01);
    }
    for (const q of rects.slice(i + 1)) {
      assert.ok(q);
      const apart =
        r.x + r.width <= q.x ||
        q.x + q.width <= r.x ||
        r.y + r.height <= q.y ||
        q.y + q.height <= r.y;
      assert.ok(apart, `${item.id} overlaps another item`);
    }
  }
}

test('laid out with ELK: opening a Cell lays out its content only; equal Cells are reused', async () => {
  const index = indexGraph(synthGraph(1, 4));
  const layouter = new LevelLayouter(runElk);
  const draw = async (expanded: Set<string>) => {
    const graph = visibleGraph(index, expanded);
    const layout = await layouter.layout(graph, sizer(index, graph));
    assertDrawable(graph, layout);
    return layout;
  };
  const first = initialExpansion(index);
  const folded = await draw(first);
  // The root Cell's content (embed, the stage, head) and the top level (the input above the
  // root Cell) are chains: placed without ELK.
  assert.deepEqual(folded.levels, { laidOut: 0, chained: 2, stretched: 0, reused: 0, ranked: 0 });

  // Opening the stage: its content (a chain of layers) is new; the levels around it stretch.
  const stage = withExpanded(index, first, [STAGE]);
  const opened = await draw(stage);
  assert.deepEqual(opened.levels, { laidOut: 0, chained: 1, stretched: 2, reused: 0, ranked: 0 });
  assert.ok(opened.height > folded.height);

  const one = await draw(withExpanded(index, stage, [LAYER0]));
  assert.deepEqual(one.levels, { laidOut: 1, chained: 0, stretched: 3, reused: 0, ranked: 0 });
  // The second layer has the same content as the first: no ELK at all.
  const two = await draw(withExpanded(index, stage, [LAYER0, LAYER1]));
  assert.equal(two.levels.laidOut, 0);
  // Folding back to a folding seen before is the cached layout of then.
  const back = await draw(withCollapsed(withExpanded(index, stage, [LAYER0, LAYER1]), STAGE));
  assert.deepEqual(back.levels, { laidOut: 0, chained: 0, stretched: 0, reused: 2, ranked: 0 });
  assert.deepEqual([back.width, back.height], [folded.width, folded.height]);
});

test('laid out with ELK: a prefetched Cell opens without running ELK', async () => {
  const index = indexGraph(synthGraph(2, 3));
  const layouter = new LevelLayouter(runElk);
  const stage = withExpanded(index, initialExpansion(index), [STAGE]);
  const g1 = visibleGraph(index, stage);
  await layouter.layout(g1, sizer(index, g1));
  const g2 = visibleGraph(index, withExpanded(index, stage, [LAYER0]));
  const ahead = await layouter.prefetch(g2, sizer(index, g2), LAYER0);
  assert.deepEqual(ahead, { laidOut: 1, chained: 0, stretched: 0, reused: 0, ranked: 0 });
  const opened = await layouter.layout(g2, sizer(index, g2));
  assert.deepEqual(opened.levels, { laidOut: 0, chained: 0, stretched: 3, reused: 1, ranked: 0 });
  assertDrawable(g2, opened);
  // The other stage has the same content as the first had when folded: cached too.
  const g3 = visibleGraph(index, withExpanded(index, stage, [LAYER0, 'Default/stage1-CellList']));
  const both = await layouter.layout(g3, sizer(index, g3));
  assert.equal(both.levels.laidOut, 0);
  assertDrawable(g3, both);
});

test('a part of a wide fan (children joined only through its ports) is one row, without ELK', async () => {
  // A stack with a 300-way fan: the fan Cell is split into parts of independent Muls.
  const index = indexGraph(synthStack(1, 1, 2, 300));
  const fan = [...index.scopes.values()].find((s) => s.path.endsWith('head-Fan'));
  const part = fan?.children[0];
  assert.ok(fan && part);
  const fanOpen = withExpanded(index, initialExpansion(index), [fan.path]);
  const expanded = withExpanded(index, fanOpen, [part]);
  const graph = visibleGraph(index, expanded);
  const level = planLevels(graph).byId.get(part);
  assert.ok(level && level.children.length > 10, 'the part holds many ops');
  let elkRuns = 0;
  const layouter = new LevelLayouter((g) => {
    elkRuns++;
    return runElk(g);
  });
  const before = visibleGraph(index, fanOpen);
  await layouter.layout(before, sizer(index, before));
  const runs = elkRuns;
  // Opening the part: its level is placed directly, the levels around it stretch; no ELK run.
  const layout = await layouter.layout(graph, sizer(index, graph));
  assertDrawable(graph, layout);
  assert.equal(elkRuns, runs);
  assert.equal(layout.levels.laidOut, 0, JSON.stringify(layout.levels));
  const sizes = sizer(index, graph);
  const shape: LevelShape = {
    level,
    sizes: level.children.map((id) => sizes(id)),
    ports: level.children.map(() => null),
    inner: new Map(),
  };
  const row = parallelLayout(shape);
  assert.ok(row, 'a fan part is placed directly');
  // One row, left to right, apart; each edge goes straight down from the Cell's top port to
  // its op, and from the op to the Cell's bottom port.
  const ys = new Set(row.children.map((r) => r.y + r.height / 2));
  assert.equal(ys.size, 1);
  row.children.forEach((r, i) => {
    const next = row.children[i + 1];
    if (next) assert.ok(r.x + r.width < next.x, `child ${i} overlaps the next`);
  });
  for (const points of row.edges) {
    const [a, b] = [points[0], points[points.length - 1]];
    assert.ok(a && b && a[0] === b[0] && a[1] < b[1], JSON.stringify(points));
  }
  assert.equal(row.ports.length, level.inPorts.length + level.outPorts.length);
  // A level where two children are joined is not a fan part.
  const joined: LevelShape = {
    ...shape,
    level: {
      ...level,
      edges: [
        ...level.edges,
        { from: { node: level.children[0] ?? '' }, to: { node: level.children[1] ?? '' } },
      ],
    },
  };
  assert.equal(parallelLayout(joined), undefined);
});

// A level whose children are a plain chain (a SequentialCell of folded blocks, a stack of 91
// encoder layers, the input above the root Cell) is placed directly: one child under the
// other, centred, as ELK's layered algorithm places it with the same spacing, but without an
// ELK run, which costs tens to hundreds of milliseconds for such a level while ELK's code is
// not yet compiled by the browser. Pure, unit-tested.
import { GROUP_HEADER } from '../labels';
import { portIndex, type LevelResult } from './levelInput';
import type { LevelEnd } from './levels';
import type { LevelShape } from './stretch';

/** The spacings of LEVEL_OPTIONS and GROUP_OPTIONS (layoutInput.ts), and ELK's root padding. */
const BETWEEN_LAYERS = 26;
const CELL_PADDING = { top: GROUP_HEADER + 8, left: 10, bottom: 10, right: 10 };
const ROOT_PADDING = { top: 12, left: 12, bottom: 12, right: 12 };

/** The chain layout of a level, or undefined when its children are not a plain chain. */
export function chainLayout(shape: LevelShape): LevelResult | undefined {
  const { level, sizes } = shape;
  const n = level.children.length;
  if (n === 0 || level.inPorts.length > 1 || level.outPorts.length > 1) return undefined;
  const index = new Map(level.children.map((id, i) => [id, i]));
  // Own ports stand at -1 (top) and n (bottom).
  const at = (e: LevelEnd, out: boolean): number =>
    e.node === level.id ? (out ? n : -1) : (index.get(e.node) ?? NaN);
  const links = new Set<number>();
  for (const e of level.edges) {
    const from = at(e.from, false);
    // Every edge joins neighbours of the chain -1, 0, 1 … n-1, n (an open Cell may be joined
    // through several of its ports).
    if (at(e.to, true) !== from + 1) return undefined;
    links.add(from);
  }
  const expected = (level.inPorts.length ? 1 : 0) + (n - 1) + (level.outPorts.length ? 1 : 0);
  if (links.size !== expected) return undefined;

  const pad = level.id === null ? ROOT_PADDING : CELL_PADDING;
  const widest = Math.max(...sizes.map((s) => s.width));
  const cx = pad.left + widest / 2;
  let y = pad.top;
  const children = sizes.map((s) => {
    const r = { x: cx - s.width / 2, y, width: s.width, height: s.height };
    y += s.height + BETWEEN_LAYERS;
    return r;
  });
  const height = y - BETWEEN_LAYERS + pad.bottom;
  const ports = [
    ...level.inPorts.map(() => ({ x: cx, y: 0 })),
    ...level.outPorts.map(() => ({ x: cx, y: height })),
  ];
  // Where an edge leaves or enters a child: its port, else the middle of its bottom or top.
  const point = (e: LevelEnd, out: boolean): [number, number] => {
    if (e.node === level.id) return [cx, out ? 0 : height];
    const i = index.get(e.node) ?? -1;
    const r = children[i];
    if (!r) return [cx, 0];
    const inner = shape.inner.get(e.node);
    const p = e.port && inner && shape.ports[i]?.[portIndex(inner, e.port.item, e.port.out)];
    if (p) return [r.x + p.x, r.y + p.y];
    return [cx, out ? r.y + r.height : r.y];
  };
  const edges = level.edges.map((e) => [point(e.from, true), point(e.to, false)]);
  return { width: pad.left + widest + pad.right, height, children, ports, edges };
}

/** ELK's spacing between two boxes of one layer (`elk.spacing.nodeNode`, layoutInput.ts). */
const IN_LAYER = 18;

/**
 * The layout of a level whose children are independent (a part of a wide fan: every edge comes
 * from the Cell's top port to a child or goes from a child to its bottom port, none joins two
 * children): one row, each child under its own top port and over its own bottom port, as ELK's
 * layered algorithm puts them all in one layer, but without an ELK run (a part of 100 parallel
 * ops with 200 port edges cost ELK hundreds of milliseconds). Undefined for any other level.
 */
export function parallelLayout(shape: LevelShape): LevelResult | undefined {
  const { level, sizes } = shape;
  const n = level.children.length;
  if (n < 2) return undefined;
  // Each edge joins the Cell's own port and a child, in the port's direction.
  for (const e of level.edges)
    if ((e.from.node === level.id) === (e.to.node === level.id)) return undefined;
  const index = new Map(level.children.map((id, i) => [id, i]));
  const pad = level.id === null ? ROOT_PADDING : CELL_PADDING;
  const tallest = Math.max(...sizes.map((s) => s.height));
  let x = pad.left;
  const children = sizes.map((s) => {
    const r = { x, y: pad.top + (tallest - s.height) / 2, width: s.width, height: s.height };
    x += s.width + IN_LAYER;
    return r;
  });
  const width = x - IN_LAYER + pad.right;
  const height = pad.top + tallest + pad.bottom;
  const centre = (id: string): number => {
    const r = children[index.get(id) ?? -1];
    return r ? r.x + r.width / 2 : width / 2;
  };
  const ports = [
    ...level.inPorts.map((id) => ({ x: centre(id), y: 0 })),
    ...level.outPorts.map((id) => ({ x: centre(id), y: height })),
  ];
  // Where an edge leaves or enters a child: its port, else the middle of its bottom or top.
  const point = (e: LevelEnd, out: boolean): [number, number] => {
    const i = index.get(e.node) ?? -1;
    const r = children[i];
    if (!r) return [width / 2, out ? 0 : height];
    const inner = shape.inner.get(e.node);
    const p = e.port && inner && shape.ports[i]?.[portIndex(inner, e.port.item, e.port.out)];
    if (p) return [r.x + p.x, r.y + p.y];
    return [r.x + r.width / 2, out ? r.y + r.height : r.y];
  };
  // The Cell's own end of an edge: its port for that child.
  const own = (e: LevelEnd, out: boolean): [number, number] => {
    const p = ports[portIndex(level, e.port?.item ?? '', out)];
    return p ? [p.x, p.y] : [width / 2, out ? height : 0];
  };
  const edges = level.edges.map((e) =>
    e.from.node === level.id
      ? [own(e.from, false), point(e.to, false)]
      : [point(e.from, true), own(e.to, true)],
  );
  return { width, height, children, ports, edges };
}

// The ELK input of one layout level, and its result read back. Ids are local to the level (n0,
// n1…, ports by position), so two Cells with the same content (the 91 layers of a stage) give
// the same input; the cache key is that input, so any change of content, size, port or option
// is a different key. Pure, unit-tested.
import type { Rect } from './geometry';
import { GROUP_OPTIONS, ROOT_OPTIONS } from './layoutInput';
import type { Level, LevelEnd } from './levels';

export interface ElkLevelPort {
  id: string;
  x?: number;
  y?: number;
  width: number;
  height: number;
  layoutOptions?: Record<string, string>;
}

export interface ElkLevelNode {
  id: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  layoutOptions?: Record<string, string>;
  ports?: ElkLevelPort[];
  children?: ElkLevelNode[];
  edges?: ElkLevelEdge[];
}

export interface ElkLevelEdge {
  id: string;
  sources: string[];
  targets: string[];
  sections?: {
    startPoint: { x: number; y: number };
    endPoint: { x: number; y: number };
    bendPoints?: { x: number; y: number }[];
  }[];
}

/** A level laid out, relative to its own box, by position in the level's lists. */
export interface LevelResult {
  width: number;
  height: number;
  /** By index in `level.children`. */
  children: Rect[];
  /** The level's own ports: `inPorts` then `outPorts`. */
  ports: { x: number; y: number }[];
  /** By index in `level.edges`. */
  edges: [number, number][][];
}

/** The same layered settings as the whole-graph layout; each level holds only plain boxes. */
export const LEVEL_OPTIONS: Record<string, string> = {
  ...ROOT_OPTIONS,
  'elk.hierarchyHandling': 'SEPARATE_CHILDREN',
};

/** Lays out a Cell's box around its content, with its ports on the top and bottom sides. */
const CELL_OPTIONS: Record<string, string> = {
  ...LEVEL_OPTIONS,
  ...GROUP_OPTIONS,
  'elk.portConstraints': 'FIXED_SIDE',
};

/** ELK lays out the inside of a node with ports only below a parent: this one places nothing. */
const WRAPPER_OPTIONS: Record<string, string> = { 'elk.algorithm': 'fixed' };

export interface ChildLevel {
  level: Level;
  result: LevelResult;
}

export interface LevelInput {
  graph: ElkLevelNode;
  key: string;
}

export function portIndex(level: Level, item: string, out: boolean): number {
  return out ? level.inPorts.length + level.outPorts.indexOf(item) : level.inPorts.indexOf(item);
}

/**
 * `size` gives the box of a child item; `child` the laid-out level of a child open Cell, whose
 * box becomes a node of fixed size with its ports at fixed positions.
 */
export function levelInput(
  level: Level,
  size: (id: string) => { width: number; height: number },
  child: (id: string) => ChildLevel,
): LevelInput {
  const local = new Map(level.children.map((id, i) => [id, i]));
  const children = level.children.map((id, i): ElkLevelNode => {
    if (!level.groups.has(id)) return { id: `n${i}`, ...size(id) };
    const { result } = child(id);
    return {
      id: `n${i}`,
      width: result.width,
      height: result.height,
      layoutOptions: { 'elk.portConstraints': 'FIXED_POS' },
      ports: result.ports.map((p, j) => ({
        id: `n${i}.${j}`,
        x: p.x,
        y: p.y,
        width: 0,
        height: 0,
      })),
    };
  });
  const endId = (e: LevelEnd): string => {
    if (!e.port) return `n${local.get(e.node) ?? -1}`;
    if (e.node === level.id) return `p${portIndex(level, e.port.item, e.port.out)}`;
    const i = local.get(e.node) ?? -1;
    return `n${i}.${portIndex(child(e.node).level, e.port.item, e.port.out)}`;
  };
  const edges = level.edges.map((e, k) => ({
    id: `e${k}`,
    sources: [endId(e.from)],
    targets: [endId(e.to)],
  }));
  let graph: ElkLevelNode;
  if (level.id === null) {
    graph = { id: 'root', layoutOptions: LEVEL_OPTIONS, children, edges };
  } else {
    const side = (out: boolean): Record<string, string> => ({
      'elk.port.side': out ? 'SOUTH' : 'NORTH',
    });
    const ports = [
      ...level.inPorts.map((_, j) => ({
        id: `p${j}`,
        width: 0,
        height: 0,
        layoutOptions: side(false),
      })),
      ...level.outPorts.map((_, j) => ({
        id: `p${level.inPorts.length + j}`,
        width: 0,
        height: 0,
        layoutOptions: side(true),
      })),
    ];
    const cell = { id: 'cell', layoutOptions: CELL_OPTIONS, ports, children, edges };
    graph = { id: 'root', layoutOptions: WRAPPER_OPTIONS, children: [cell] };
  }
  return { graph, key: JSON.stringify(graph) };
}

/** Reads ELK's answer for `levelInput(level…)` back, relative to the level's box. */
export function readLevel(level: Level, out: ElkLevelNode): LevelResult {
  const box = level.id === null ? out : out.children?.[0];
  if (!box) throw new Error('ELK returned no box for the level');
  const ox = level.id === null ? 0 : (box.x ?? 0);
  const oy = level.id === null ? 0 : (box.y ?? 0);
  const children: Rect[] = level.children.map(() => ({ x: 0, y: 0, width: 0, height: 0 }));
  for (const c of box.children ?? []) {
    children[Number(c.id.slice(1))] = {
      x: c.x ?? 0,
      y: c.y ?? 0,
      width: c.width ?? 0,
      height: c.height ?? 0,
    };
  }
  const ports = (box.ports ?? []).map(() => ({ x: 0, y: 0 }));
  for (const p of box.ports ?? []) ports[Number(p.id.slice(1))] = { x: p.x ?? 0, y: p.y ?? 0 };
  const edges: [number, number][][] = level.edges.map(() => []);
  for (const e of box.edges ?? []) {
    const points: [number, number][] = [];
    for (const s of e.sections ?? []) {
      points.push([s.startPoint.x - ox, s.startPoint.y - oy]);
      for (const b of s.bendPoints ?? []) points.push([b.x - ox, b.y - oy]);
      points.push([s.endPoint.x - ox, s.endPoint.y - oy]);
    }
    edges[Number(e.id.slice(1))] = points;
  }
  return { width: box.width ?? 0, height: box.height ?? 0, children, ports, edges };
}

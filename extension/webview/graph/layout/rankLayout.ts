// The layout of a level too big to give ELK (its layered algorithm grows with the long edges
// of a big level, and a 2,000-box level once took the page past 4 GB): rows by longest path
// in data-flow order, long rows wrapped, edges as straight lines. Linear in the level's size.
// Wide Cells are split into parts before they get here (wideScopes.ts), so this is the guard
// for what is left. Pure, unit-tested.
import { GROUP_HEADER } from '../labels';
import { portIndex, type LevelResult } from './levelInput';
import type { Level, LevelEnd } from './levels';
import type { LevelShape } from './stretch';

/** Past either, a level is laid out here instead of by ELK. */
export const ELK_MAX_CHILDREN = 160;
export const ELK_MAX_EDGES = 480;

const GAP_X = 18;
const GAP_Y = 26;
const MAX_ROW_WIDTH = 2400;
const CELL_PADDING = { top: GROUP_HEADER + 8, left: 10, bottom: 10, right: 10 };
const ROOT_PADDING = { top: 12, left: 12, bottom: 12, right: 12 };

export function overElkBudget(level: Level): boolean {
  return level.children.length > ELK_MAX_CHILDREN || level.edges.length > ELK_MAX_EDGES;
}

export function rankLayout(shape: LevelShape): LevelResult {
  const { level, sizes } = shape;
  const index = new Map(level.children.map((id, i) => [id, i]));
  // Longest path from the level's sources, children in data-flow order; an edge back to an
  // earlier child (a cycle between folded Cells) is ignored.
  const rank = level.children.map(() => 0);
  const into = level.children.map((): number[] => []);
  for (const e of level.edges) {
    const from = index.get(e.from.node);
    const to = index.get(e.to.node);
    if (from !== undefined && to !== undefined && from < to) into[to]?.push(from);
  }
  for (let i = 0; i < rank.length; i++) {
    for (const f of into[i] ?? []) rank[i] = Math.max(rank[i] ?? 0, (rank[f] ?? 0) + 1);
  }
  // Rows by rank, each wrapped at MAX_ROW_WIDTH.
  const rows: number[][] = [];
  const byRank: (number[] | undefined)[] = [];
  rank.forEach((r, i) => (byRank[r] ??= []).push(i));
  for (const members of byRank) {
    let row: number[] = [];
    let width = 0;
    for (const i of members ?? []) {
      const w = (sizes[i]?.width ?? 0) + GAP_X;
      if (row.length && width + w > MAX_ROW_WIDTH) {
        rows.push(row);
        row = [];
        width = 0;
      }
      row.push(i);
      width += w;
    }
    if (row.length) rows.push(row);
  }
  const pad = level.id === null ? ROOT_PADDING : CELL_PADDING;
  const rowWidth = (row: number[]): number =>
    row.reduce((a, i) => a + (sizes[i]?.width ?? 0), 0) + GAP_X * (row.length - 1);
  const inner = Math.max(0, ...rows.map(rowWidth));
  const children = level.children.map(() => ({ x: 0, y: 0, width: 0, height: 0 }));
  let y = pad.top;
  for (const row of rows) {
    let x = pad.left + (inner - rowWidth(row)) / 2;
    let tallest = 0;
    for (const i of row) {
      const s = sizes[i] ?? { width: 0, height: 0 };
      children[i] = { x, y, width: s.width, height: s.height };
      x += s.width + GAP_X;
      tallest = Math.max(tallest, s.height);
    }
    y += tallest + GAP_Y;
  }
  const height = (rows.length ? y - GAP_Y : y) + pad.bottom;
  const width = pad.left + inner + pad.right;
  const spread = (n: number, j: number): number => pad.left + (inner * (j + 1)) / (n + 1);
  const ports = [
    ...level.inPorts.map((_, j) => ({ x: spread(level.inPorts.length, j), y: 0 })),
    ...level.outPorts.map((_, j) => ({ x: spread(level.outPorts.length, j), y: height })),
  ];
  const point = (e: LevelEnd, out: boolean): [number, number] => {
    if (e.node === level.id && e.port) {
      const p = ports[portIndex(level, e.port.item, e.port.out)] ?? { x: 0, y: 0 };
      return [p.x, p.y];
    }
    const i = index.get(e.node) ?? -1;
    const r = children[i] ?? { x: 0, y: 0, width: 0, height: 0 };
    const innerLevel = shape.inner.get(e.node);
    const p =
      e.port && innerLevel && shape.ports[i]?.[portIndex(innerLevel, e.port.item, e.port.out)];
    if (p) return [r.x + p.x, r.y + p.y];
    return [r.x + r.width / 2, out ? r.y + r.height : r.y];
  };
  const edges = level.edges.map((e) => [point(e.from, true), point(e.to, false)]);
  return { width, height, children, ports, edges };
}

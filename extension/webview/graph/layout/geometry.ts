// The geometry a layout produces, in scene coordinates: what render.ts and the minimap draw.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutEdge {
  from: string;
  to: string;
  count: number;
  points: [number, number][];
}

export interface Layout {
  items: Map<string, Rect>;
  groups: Map<string, Rect>;
  edges: LaidOutEdge[];
  width: number;
  height: number;
  /** Time from the visible graph to this geometry. */
  ms: number;
  /** How the levels (the top and each open Cell) were laid out; absent for the whole layout. */
  levels?: LevelCounts;
}

export interface LevelCounts {
  /** Levels ELK laid out. */
  laidOut: number;
  /** Levels placed as a plain chain (chain.ts). */
  chained: number;
  /** Levels stretched from their previous layout (stretch.ts). */
  stretched: number;
  /** Levels from the cache, or laid out once for several equal Cells. */
  reused: number;
  /** Levels too big for ELK, laid out in rows (rankLayout.ts). */
  ranked: number;
}

// The timeline's data: Chrome trace 'X' events in tracks (one per pid/tid), nested events on
// rows by depth, and fast range queries for drawing 100,000 events. Pure, unit-tested.
import type { TraceEvent } from '../../src/contracts/profileDocument';

export interface Row {
  label: string;
  starts: Float64Array;
  ends: Float64Array;
  names: string[];
  /** The longest event: a range query starts that far before the window. */
  maxDur: number;
}

export interface TimelineModel {
  rows: Row[];
  start: number;
  end: number;
  count: number;
}

export function buildTimeline(events: readonly TraceEvent[]): TimelineModel {
  const processNames = new Map<number, string>();
  const tracks = new Map<string, { label: string; events: TraceEvent[] }>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'process_name') {
      const name = e.args?.name;
      if (typeof name === 'string') processNames.set(e.pid, name);
    }
  }
  for (const e of events) {
    if (e.ph !== 'X' || e.ts === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    let track = tracks.get(key);
    if (!track) {
      const label = processNames.get(e.pid) ?? `pid ${e.pid}`;
      track = { label: e.tid ? `${label} ${e.tid}` : label, events: [] };
      tracks.set(key, track);
    }
    track.events.push(e);
  }
  const rows: Row[] = [];
  let start = Infinity;
  let end = -Infinity;
  let count = 0;
  const ordered = [...tracks.entries()].sort((a, b) =>
    a[0].localeCompare(b[0], 'en', { numeric: true }),
  );
  for (const [, track] of ordered) {
    for (const row of nestRows(track.label, track.events)) {
      rows.push(row);
      count += row.names.length;
      if (row.starts.length) {
        start = Math.min(start, row.starts[0] ?? start);
        for (const e of row.ends) if (e > end) end = e;
      }
    }
  }
  if (!Number.isFinite(start)) [start, end] = [0, 1];
  return { rows, start, end, count };
}

/** Puts each event on the first row (depth) where it does not overlap an open parent. */
function nestRows(label: string, events: TraceEvent[]): Row[] {
  const sorted = [...events].sort(
    (a, b) => (a.ts ?? 0) - (b.ts ?? 0) || (b.dur ?? 0) - (a.dur ?? 0),
  );
  const byDepth: TraceEvent[][] = [];
  const stack: number[] = [];
  for (const e of sorted) {
    const ts = e.ts ?? 0;
    while (stack.length && (stack[stack.length - 1] ?? 0) <= ts) stack.pop();
    const depth = stack.length;
    (byDepth[depth] ??= []).push(e);
    stack.push(ts + (e.dur ?? 0));
  }
  return byDepth.map((list, depth) => {
    const starts = new Float64Array(list.length);
    const ends = new Float64Array(list.length);
    let maxDur = 0;
    list.forEach((e, i) => {
      starts[i] = e.ts ?? 0;
      ends[i] = (e.ts ?? 0) + (e.dur ?? 0);
      maxDur = Math.max(maxDur, e.dur ?? 0);
    });
    return {
      label: depth ? `${label} ·${depth}` : label,
      starts,
      ends,
      names: list.map((e) => e.name),
      maxDur,
    };
  });
}

/** First index whose event may reach into [t0, …): binary search on the start times. */
export function firstVisible(row: Row, t0: number): number {
  let lo = 0;
  let hi = row.starts.length;
  const from = t0 - row.maxDur;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((row.starts[mid] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Span {
  x: number;
  width: number;
  index: number;
}

/**
 * The rectangles to draw for one row in the window [t0, t1] at `pxPerUs`: events narrower
 * than a pixel that fall on an already covered pixel are merged, so a frame draws at most
 * about one rectangle per pixel column whatever the number of events.
 */
export function visibleSpans(row: Row, t0: number, t1: number, pxPerUs: number): Span[] {
  const spans: Span[] = [];
  let coveredTo = -Infinity;
  for (let i = firstVisible(row, t0); i < row.starts.length; i++) {
    const s = row.starts[i] ?? 0;
    if (s > t1) break;
    const e = row.ends[i] ?? s;
    if (e < t0) continue;
    const x = (s - t0) * pxPerUs;
    const x2 = (e - t0) * pxPerUs;
    if (x2 <= coveredTo) continue;
    const left = Math.max(x, coveredTo);
    const width = Math.max(1, x2 - left);
    const last = spans[spans.length - 1];
    if (last && width <= 1 && left - (last.x + last.width) < 1) {
      last.width = Math.max(last.width, x2 - last.x, left + 1 - last.x);
    } else {
      spans.push({ x: left, width, index: i });
    }
    coveredTo = Math.max(coveredTo, left + width);
  }
  return spans;
}

/** The event under time t on a row, if any. */
export function eventAt(row: Row, t: number, slackUs: number): number | undefined {
  for (let i = firstVisible(row, t - slackUs); i < row.starts.length; i++) {
    const s = row.starts[i] ?? 0;
    if (s > t + slackUs) break;
    if ((row.ends[i] ?? s) >= t - slackUs) return i;
  }
  return undefined;
}

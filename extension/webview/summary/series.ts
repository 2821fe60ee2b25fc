// Pure maths of the scalar charts: smoothing, x axes, drawing-only downsampling, ticks.
// No DOM: unit-tested in tests/unit/summarySeries.test.ts.
import type { ScalarSeries } from '../../src/contracts/summaryDocument';

export type XAxis = 'step' | 'relative' | 'wall';

/** The values as a typed array, NaN where the document has null (NaN/Inf). */
export function toArray(values: readonly (number | null)[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] ?? NaN;
  return out;
}

/** TensorBoard's debiased EMA: weight 0 returns the values; NaN stays NaN. */
export function smooth(values: ArrayLike<number>, weight: number): Float64Array {
  const out = new Float64Array(values.length);
  let last = 0;
  let debias = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? NaN;
    if (weight <= 0 || v !== v) {
      out[i] = v;
      continue;
    }
    last = last * weight + (1 - weight) * v;
    debias = debias * weight + (1 - weight);
    out[i] = last / debias;
  }
  return out;
}

/** x of every point: the step, seconds since the run's first point, or wall time (seconds). */
export function xValues(series: ScalarSeries, axis: XAxis): Float64Array {
  if (axis === 'step') return Float64Array.from(series.steps);
  const start = axis === 'wall' ? 0 : (series.wallTimes[0] ?? 0);
  return Float64Array.from(series.wallTimes, (t) => t - start);
}

/**
 * Indices of the points worth drawing between x0 and x1 at `columns` pixels: per column the
 * first, last, lowest and highest point (so spikes survive), in order; NaN values are never
 * picks but end a column's line. Drawing only: the read-out always uses every point.
 */
export function downsample(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  x0: number,
  x1: number,
  columns: number,
): number[] {
  const first = Math.max(0, lowerBound(xs, x0) - 1);
  const last = Math.min(xs.length - 1, lowerBound(xs, x1));
  if (last - first + 1 <= columns * 4) return range(first, last);
  const out: number[] = [];
  const scale = columns / (x1 - x0 || 1);
  let column = Number.NaN;
  let firstI = -1;
  let lo = -1;
  let hi = -1;
  let loV = Infinity;
  let hiV = -Infinity;
  let lastI = -1;
  const flush = (): void => {
    if (firstI === -1) return;
    const picks = [firstI, lo, hi, lastI].filter((i) => i !== -1).sort((a, b) => a - b);
    for (const i of picks) if (out[out.length - 1] !== i) out.push(i);
  };
  for (let i = first; i <= last; i++) {
    const c = Math.floor(((xs[i] as number) - x0) * scale);
    if (c !== column) {
      flush();
      column = c;
      firstI = i;
      lo = hi = -1;
      loV = Infinity;
      hiV = -Infinity;
    }
    lastI = i;
    const y = ys[i] as number;
    if (y < loV) {
      loV = y;
      lo = i;
    }
    if (y > hiV) {
      hiV = y;
      hi = i;
    }
  }
  flush();
  return out;
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

/** The first index whose x is ≥ `x` (xs sorted ascending). */
export function lowerBound(xs: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the point nearest to `x` (for the hover read-out), or -1. */
export function nearest(xs: ArrayLike<number>, x: number): number {
  if (!xs.length) return -1;
  const i = lowerBound(xs, x);
  if (i <= 0) return 0;
  if (i >= xs.length) return xs.length - 1;
  return x - (xs[i - 1] ?? 0) <= (xs[i] ?? 0) - x ? i - 1 : i;
}

/** About `count` round tick values covering [lo, hi]. */
export function ticks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo) || !Number.isFinite(hi - lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  // At most count * 3 ticks: a step below the values' precision would never advance `t`.
  for (let k = Math.ceil(lo / step); k * step <= hi + step * 1e-9 && out.length < count * 3; k++) {
    out.push(Number((k * step).toPrecision(12)));
  }
  return out;
}

/** A y range worth drawing: a flat or float-noise-thin range is widened around its value. */
export function padRange(lo: number, hi: number, log: boolean): [number, number] {
  if (hi - lo > Math.max(Math.abs(lo), Math.abs(hi)) * 1e-9) return [lo, hi];
  if (log) return [lo / 2, hi * 2];
  const pad = Math.abs(lo) * 0.1 || 1;
  return [lo - pad, hi + pad];
}

/** [min, max] of the finite values (log scale: of the positive ones) at `indices` (default
 * every index), or undefined. */
export function extent(
  values: ArrayLike<number>,
  log: boolean,
  indices?: readonly number[],
): [number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  const n = indices ? indices.length : values.length;
  for (let k = 0; k < n; k++) {
    const v = values[indices ? (indices[k] ?? 0) : k] ?? NaN;
    if (Number.isNaN(v) || (log && v <= 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}

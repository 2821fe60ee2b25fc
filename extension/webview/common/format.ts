// Formatting of shapes, counts and durations: pure, shared by the graph and profile views.
import type { Shape } from '../../src/contracts/graphDocument';

export function formatShape(shape: Shape | undefined): string {
  if (!shape) return '?';
  return shape.length === 0 ? 'scalar' : shape.join('×');
}

/** 274042 → "274K", 1234567 → "1.23M". */
export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${trim(n / 1e3)}K`;
  if (n < 1e9) return `${trim(n / 1e6)}M`;
  return `${trim(n / 1e9)}G`;
}

function trim(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** Milliseconds with a sensible unit: 0.0123 → "12.3 µs", 12.3 → "12.3 ms". */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** A scope path as attribute access: "Default/layer1-SequentialCell/0-BasicBlock" → "layer1.0". */
export function cellPath(path: string): string {
  const parts = path.split('/').slice(1);
  if (!parts.length) return path || '(root)';
  return parts.map((p) => (p.lastIndexOf('-') > 0 ? p.slice(0, p.lastIndexOf('-')) : p)).join('.');
}

/** The last segment of a scope path without its Cell type: "Default/layer1-SequentialCell" → "layer1". */
export function scopeLabel(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dash = last.lastIndexOf('-');
  return dash > 0 ? last.slice(0, dash) : last;
}

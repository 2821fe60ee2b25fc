// Histograms over steps as SVG: offset (a ridgeline, the latest step in front) or overlay (every
// step on one baseline, later steps darker). At most MAX_SHOWN steps, evenly spaced.
import type { HistogramSample } from '../../src/contracts/summaryDocument';
import { h, s } from '../common/dom';
import { fmt } from './scalarChart';

export type HistogramMode = 'offset' | 'overlay';
const MAX_SHOWN = 30;
const WIDTH = 480;
const HEIGHT = 240;

/** Evenly spaced samples, always keeping the first and the last. Pure. */
export function pickSamples<T>(samples: readonly T[], max = MAX_SHOWN): T[] {
  if (samples.length <= max) return samples.slice();
  const out: T[] = [];
  for (let k = 0; k < max; k++) {
    const item = samples[Math.round((k * (samples.length - 1)) / (max - 1))];
    if (item !== undefined) out.push(item);
  }
  return out;
}

export function histogramChart(
  run: string,
  tag: string,
  samples: HistogramSample[],
  mode: HistogramMode,
): HTMLElement {
  const shown = pickSamples(samples);
  let lo = Infinity;
  let hi = -Infinity;
  let top = 0;
  for (const sample of shown) {
    for (const [left, width, count] of sample.buckets) {
      lo = Math.min(lo, left);
      hi = Math.max(hi, left + width);
      top = Math.max(top, count / (width || 1));
    }
  }
  const svg = s('svg', {
    width: WIDTH,
    height: HEIGHT,
    class: 'histogram',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
  });
  if (!shown.length || !(hi > lo)) return wrap(run, tag, samples.length, svg);
  const offset = mode === 'offset' ? (HEIGHT * 0.5) / Math.max(1, shown.length - 1) : 0;
  const ridge = mode === 'offset' ? HEIGHT * 0.45 : HEIGHT - 30;
  shown.forEach((sample, k) => {
    const base = mode === 'offset' ? HEIGHT - 20 - (shown.length - 1 - k) * offset : HEIGHT - 20;
    const points = sample.buckets.flatMap(([left, width, count]) => {
      const x0 = 10 + ((left - lo) / (hi - lo)) * (WIDTH - 20);
      const x1 = 10 + ((left + width - lo) / (hi - lo)) * (WIDTH - 20);
      const y = base - (count / (width || 1) / top) * ridge;
      return [`${x0.toFixed(1)},${y.toFixed(1)}`, `${x1.toFixed(1)},${y.toFixed(1)}`];
    });
    const shade = 0.25 + (0.75 * k) / Math.max(1, shown.length - 1);
    const line = s('polyline', {
      points: points.join(' '),
      fill: 'none',
      stroke: `rgba(64,128,224,${shade.toFixed(2)})`,
      'data-step': sample.step,
    });
    line.append(
      s(
        'title',
        {},
        `step ${sample.step}: ${sample.count} values, min ${fmt(sample.min ?? NaN)}, max ${fmt(sample.max ?? NaN)}`,
      ),
    );
    svg.append(line);
  });
  svg.append(
    s('text', { x: 10, y: HEIGHT - 4, class: 'axis' }, fmt(lo)),
    s('text', { x: WIDTH - 60, y: HEIGHT - 4, class: 'axis' }, fmt(hi)),
  );
  return wrap(run, tag, samples.length, svg);
}

function wrap(run: string, tag: string, steps: number, svg: SVGElement): HTMLElement {
  return h(
    'div',
    { class: 'histogram-chart', 'data-tag': tag, 'data-run': run, 'data-steps': steps },
    h('h4', {}, tag, h('span', { class: 'hint' }, ` ${run} · ${steps} steps`)),
    svg,
  );
}

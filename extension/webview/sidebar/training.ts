// The side panel's "Training runs": each summary run with its latest loss and a sparkline;
// click a run to open the dashboard, tick several and Compare.
import type { FromSidebar, TrainingRunItem, TrainingRuns } from '../../src/contracts/sidebar';
import { h, s } from '../common/dom';

export function sparkline(
  values: readonly (number | null)[],
  width = 80,
  height = 18,
): SVGSVGElement {
  const finite = values.filter((v): v is number => v !== null);
  const svg = s('svg', { class: 'sparkline', width, height, viewBox: `0 0 ${width} ${height}` });
  if (finite.length < 2) return svg;
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const points = values.flatMap((v, i) => {
    if (v === null) return [];
    const x = (i / Math.max(1, values.length - 1)) * width;
    const y = height - 1 - ((v - lo) / (hi - lo || 1)) * (height - 2);
    return [`${x.toFixed(1)},${y.toFixed(1)}`];
  });
  svg.append(s('polyline', { points: points.join(' '), fill: 'none', stroke: 'currentColor' }));
  return svg;
}

function latest(item: TrainingRunItem): string {
  if (item.latest === null) return item.points ? 'NaN/Inf' : 'no scalars';
  return `${item.tag ?? ''} ${Number(item.latest.toPrecision(4))}`;
}

export function trainingSection(
  t: TrainingRuns | undefined,
  post: (m: FromSidebar) => void,
): HTMLElement | null {
  if (!t || (!t.items.length && !t.reading && !t.error)) return null;
  const picked = new Set<TrainingRunItem>();
  const compare = h('button', { class: 'compare', disabled: true }, 'Compare');
  const rows = t.items.map((item) => {
    const box = h('input', { type: 'checkbox', class: 'training-pick', 'data-run': item.name });
    box.addEventListener('change', () => {
      if (box.checked) picked.add(item);
      else picked.delete(item);
      compare.disabled = picked.size < 2;
    });
    const name = h('span', { class: 'name' }, item.name);
    const row = h('li', { class: 'training-run', title: item.path, 'data-run': item.name },
      box, name, h('span', { class: 'latest' }, latest(item)), sparkline(item.spark)); // prettier-ignore
    name.addEventListener('click', () =>
      post({ type: 'openTraining', root: item.root, runs: [item.name] }),
    );
    return row;
  });
  compare.addEventListener('click', () => {
    const chosen = [...picked];
    const root = chosen[0]?.root;
    if (root)
      post({
        type: 'openTraining',
        root,
        runs: chosen.filter((c) => c.root === root).map((c) => c.name),
      });
  });
  return h(
    'section',
    { class: 'training' },
    h('h3', {}, 'Training runs'),
    t.reading && !t.items.length ? h('p', { class: 'hint' }, 'Reading summaries…') : null,
    t.error ? h('p', { class: 'hint error' }, t.error) : null,
    rows.length ? h('ul', { class: 'training-runs' }, ...rows) : null,
    rows.length > 1 ? compare : null,
  );
}

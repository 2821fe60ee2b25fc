// Two small SVG charts: time per Cell (the root's children) and wall time per step.
import type { CellRow, StepRow } from '../../src/contracts/profileDocument';
import { h, s } from '../common/dom';
import { formatMs, scopeLabel } from '../common/format';
import { callCount, perCallMs, topCells } from './cellTimes';

export function cellChart(
  cells: readonly CellRow[],
  steps: number,
  onPick: (scope: string) => void,
): HTMLElement {
  const rows = topCells(cells).slice(0, 16);
  const max = Math.max(...rows.map((r) => r.totalMs), 1e-9);
  const barH = 18;
  const labelW = 150;
  const width = 460;
  const svg = s('svg', { class: 'chart', width, height: rows.length * barH + 4 });
  rows.forEach((r, i) => {
    const w = ((width - labelW - 80) * r.totalMs) / max;
    const g = s(
      'g',
      { class: 'bar', transform: `translate(0,${i * barH})` },
      s('text', { x: labelW - 6, y: 13, class: 'bar-label' }, scopeLabel(r.scope)),
      s('rect', { x: labelW, y: 2, width: Math.max(1, w), height: barH - 4, rx: 2 }),
      s('text', { x: labelW + w + 4, y: 13, class: 'bar-value' }, formatMs(perCallMs(r, steps))),
      s(
        'title',
        {},
        `${r.scope}\n${formatMs(r.totalMs)} total over ${callCount(r, steps)} calls (${(r.share * 100).toFixed(1)}%)`,
      ),
    );
    g.addEventListener('click', () => onPick(r.scope));
    svg.appendChild(g);
  });
  return h('figure', {}, h('figcaption', {}, 'Time per Cell (per call)'), svg);
}

export function stepChart(steps: readonly StepRow[]): HTMLElement {
  const max = Math.max(...steps.map((x) => x.wallMs), 1e-9);
  const height = 120;
  const barW = Math.max(6, Math.min(40, 420 / Math.max(1, steps.length)));
  const svg = s('svg', {
    class: 'chart',
    width: steps.length * (barW + 4) + 70,
    height: height + 18,
  });
  steps.forEach((st, i) => {
    const x = 58 + i * (barW + 4);
    const wall = (height * st.wallMs) / max;
    const ops = (height * st.opMs) / max;
    svg.append(
      s('rect', { class: 'step-wall', x, y: height - wall, width: barW, height: wall }),
      s('rect', { class: 'step-ops', x, y: height - ops, width: barW, height: ops }),
      s(
        'text',
        { class: 'bar-value', x: x + barW / 2, y: height + 13, 'text-anchor': 'middle' },
        String(st.index),
      ),
      s(
        'title',
        {},
        `step ${st.index}: ${formatMs(st.wallMs)} wall, ${formatMs(st.opMs)} in ${st.opCount} ops`,
      ),
    );
  });
  svg.append(s('text', { class: 'bar-value', x: 0, y: 10 }, formatMs(max)));
  return h('figure', {}, h('figcaption', {}, 'Step time (wall; ops inside)'), svg);
}

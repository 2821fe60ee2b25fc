// The distributed charts: step time per rank (straggler highlighted) and communication /
// compute / idle per rank. Shown only for a document with a `ranks` section.
import type { RanksSection } from '../../src/contracts/profileDocument';
import { h, s } from '../common/dom';
import { formatMs, formatPercent } from '../common/format';
import { breakdowns, clockText, stepGroups } from './ranksModel';

export function rankStepChart(section: RanksSection): HTMLElement {
  const groups = stepGroups(section);
  const max = Math.max(1e-9, ...groups.flatMap((g) => g.bars.map((b) => b.wallMs)));
  const height = 120;
  const barW = Math.max(5, Math.min(22, 360 / Math.max(1, groups.length * section.count)));
  const groupW = section.count * barW + 10;
  const svg = s('svg', {
    class: 'chart rank-steps',
    width: groups.length * groupW + 70,
    height: height + 18,
  });
  groups.forEach((g, gi) => {
    const x0 = 58 + gi * groupW;
    g.bars.forEach((b, bi) => {
      const barH = (height * b.wallMs) / max;
      const cls = `rank-bar rank-${bi % 8}${b.straggler ? ' straggler' : ''}`;
      svg.append(
        s(
          'rect',
          { class: cls, x: x0 + bi * barW, y: height - barH, width: barW - 1, height: barH },
          s(
            'title',
            {},
            `step ${g.index}, rank ${b.rank}: ${formatMs(b.wallMs)}${b.straggler ? ' (straggler)' : ''}`,
          ),
        ),
      );
    });
    svg.append(
      s(
        'text',
        {
          class: 'bar-value',
          x: x0 + (section.count * barW) / 2,
          y: height + 13,
          'text-anchor': 'middle',
        },
        String(g.index),
      ),
    );
  });
  svg.append(s('text', { class: 'bar-value', x: 0, y: 10 }, formatMs(max)));
  return h(
    'figure',
    { class: 'rank-step-chart' },
    h('figcaption', {}, 'Step time per rank (outlined: straggler)'),
    svg,
    legend(section),
  );
}

function legend(section: RanksSection): HTMLElement {
  return h(
    'div',
    { class: 'rank-legend' },
    ...section.ranks.map((r, i) =>
      h(
        'span',
        { class: `rank-key rank-${i % 8}` },
        `rank ${r.rank}${r.host ? ` (${r.host})` : ''}`,
      ),
    ),
  );
}

export function rankBreakdownChart(section: RanksSection): HTMLElement {
  const rows = breakdowns(section);
  const barH = 18;
  const labelW = 70;
  const width = 420;
  const svg = s('svg', { class: 'chart rank-breakdown', width, height: rows.length * barH + 4 });
  rows.forEach((r, i) => {
    const g = s('g', {
      class: `rank-row${r.straggler ? ' straggler' : ''}`,
      transform: `translate(0,${i * barH})`,
    });
    g.append(s('text', { x: labelW - 6, y: 13, class: 'bar-label' }, `rank ${r.rank}`));
    let x = labelW;
    for (const part of r.parts) {
      const w = (width - labelW - 10) * Math.max(0, part.share);
      g.append(
        s(
          'rect',
          { class: `part-${part.kind}`, x, y: 2, width: Math.max(0, w), height: barH - 4 },
          s(
            'title',
            {},
            `rank ${r.rank} ${part.kind}: ${formatMs(part.ms)} (${formatPercent(part.share)})`,
          ),
        ),
      );
      x += w;
    }
    svg.append(g);
  });
  return h(
    'figure',
    { class: 'rank-breakdown-chart' },
    h('figcaption', {}, 'Communication · compute · idle per rank'),
    svg,
    h(
      'div',
      { class: 'rank-legend' },
      h('span', { class: 'part-key part-comm' }, 'communication'),
      h('span', { class: 'part-key part-compute' }, 'compute'),
      h('span', { class: 'part-key part-idle' }, 'idle'),
    ),
  );
}

/** The facts line about the ranks, and anything that could not be read. */
export function rankNotes(section: RanksSection): HTMLElement {
  return h(
    'div',
    { class: 'rank-notes' },
    h('div', { class: 'rank-clock' }, clockText(section)),
    ...section.unreadable.map((u) => h('div', { class: 'rank-unreadable' }, u.message)),
  );
}

// The profile view: summary, per-Cell and step charts, op table and timeline. Knows nothing of
// VS Code: the panel and the notebook renderer give it a host.
import { ranksOf, type OpRow, type ProfileDocument } from '../../src/contracts/profileDocument';
import { clear, h } from '../common/dom';
import { formatMs } from '../common/format';
import { cellChart, stepChart } from './charts';
import { rankBreakdownChart, rankNotes, rankStepChart } from './ranks';
import { OpTable } from './tableView';
import { Timeline } from './timeline';
import { buildTimeline } from './timelineModel';

export interface ProfileViewHost {
  exportTrace?(): void;
  revealOp?(row: { fullName: string; scope: string }): void;
}

export class ProfileView {
  readonly table: OpTable;
  readonly timeline: Timeline;

  constructor(
    readonly root: HTMLElement,
    doc: ProfileDocument,
    host: ProfileViewHost = {},
  ) {
    root.classList.add('mindscope-profile');
    clear(root);
    const pick = (r: OpRow): void => host.revealOp?.({ fullName: r.fullName, scope: r.scope });
    this.table = new OpTable(doc.ops, pick);
    const byName = new Map(doc.ops.map((o) => [o.fullName, o]));
    this.timeline = new Timeline(buildTimeline(doc.timeline.events), (name) => {
      const row = byName.get(name);
      host.revealOp?.({ fullName: name, scope: row?.scope ?? '' });
    });
    const exportButton = h(
      'button',
      {
        class: 'export',
        title: 'Save the timeline as a Chrome trace (Perfetto, chrome://tracing)',
      },
      'Export Chrome trace',
    );
    exportButton.addEventListener('click', () => host.exportTrace?.());
    const m = doc.meta;
    const ranks = ranksOf(doc);
    const facts = [
      m.target,
      m.mode,
      `${m.steps} ${m.step?.kind === 'train' ? 'training' : 'forward'} steps`,
      `mean step ${formatMs(doc.totals.meanStepMs)}`,
      `ops ${formatMs(doc.totals.opMs / Math.max(1, doc.totals.steps))}/step`,
      `${doc.ops.length} ops`,
      `MindSpore ${m.mindsporeVersion}`,
    ];
    if (ranks) facts.splice(1, 0, `${ranks.count} ranks`);
    root.append(
      h(
        'header',
        {},
        h('div', { class: 'facts' }, facts.join(' · ')),
        host.exportTrace ? exportButton : null,
      ),
      h(
        'div',
        { class: 'charts' },
        cellChart(doc.byCell, doc.totals.steps, (scope) =>
          host.revealOp?.({ fullName: '', scope }),
        ),
        stepChart(doc.steps),
        ranks ? rankStepChart(ranks) : null,
        ranks ? rankBreakdownChart(ranks) : null,
      ),
      ranks ? rankNotes(ranks) : '',
      h(
        'h3',
        {},
        'Timeline',
        h(
          'span',
          { class: 'hint' },
          ' wheel to zoom, drag to pan, click an op to find it in the graph',
        ),
      ),
      this.timeline.element,
      h('h3', {}, 'Ops'),
      this.table.element,
    );
    this.timeline.requestDraw();
  }
}

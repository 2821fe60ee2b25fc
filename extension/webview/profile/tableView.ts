// The op table: sortable headers, grouping by op type or Cell, a filter box.
import type { OpRow } from '../../src/contracts/profileDocument';
import { clear, h } from '../common/dom';
import { cellPath, formatMs, formatPercent } from '../common/format';
import {
  filterByRank,
  filterRows,
  groupRows,
  nextSort,
  rowRanks,
  sortRows,
  type GroupBy,
  type Sort,
  type SortKey,
} from './table';

const COLUMNS: { key: SortKey; label: string; numeric: boolean }[] = [
  { key: 'name', label: 'Op', numeric: false },
  { key: 'type', label: 'Type', numeric: false },
  { key: 'scope', label: 'Cell', numeric: false },
  { key: 'calls', label: 'Calls', numeric: true },
  { key: 'totalMs', label: 'Total', numeric: true },
  { key: 'avgMs', label: 'Avg', numeric: true },
  { key: 'share', label: 'Share', numeric: true },
];

export class OpTable {
  readonly element: HTMLElement;
  private sort: Sort = { key: 'totalMs', dir: 'desc' };
  private group: GroupBy = 'none';
  private query = '';
  private rank: number | undefined = undefined;
  private readonly table: HTMLTableElement;
  private readonly columns: typeof COLUMNS;

  constructor(
    private readonly rows: readonly OpRow[],
    private readonly onPick: (row: OpRow) => void,
  ) {
    const groupSelect = h(
      'select',
      { class: 'group-by', title: 'Group rows' },
      h('option', { value: 'none' }, 'No grouping'),
      h('option', { value: 'type' }, 'Group by op type'),
      h('option', { value: 'cell' }, 'Group by Cell'),
    );
    groupSelect.addEventListener('change', () => {
      this.group = groupSelect.value as GroupBy;
      this.render();
    });
    const filter = h('input', { type: 'search', class: 'filter', placeholder: 'Filter ops' });
    filter.addEventListener('input', () => {
      this.query = filter.value;
      this.render();
    });
    // A merged distributed profile: a Rank column and a rank filter.
    const ranks = rowRanks(rows);
    this.columns = ranks.length
      ? [...COLUMNS.slice(0, 1), { key: 'rank', label: 'Rank', numeric: true }, ...COLUMNS.slice(1)]
      : COLUMNS;
    this.table = h('table', { class: 'ops' });
    this.element = h(
      'div',
      { class: 'op-table' },
      h(
        'div',
        { class: 'table-tools' },
        filter,
        groupSelect,
        ranks.length ? this.rankSelect(ranks) : null,
      ),
      this.table,
    );
    this.render();
  }

  private rankSelect(ranks: number[]): HTMLSelectElement {
    const select = h(
      'select',
      { class: 'rank-filter', title: 'Show the ops of one rank' },
      h('option', { value: '' }, 'All ranks'),
      ...ranks.map((r) => h('option', { value: String(r) }, `Rank ${r}`)),
    );
    select.addEventListener('change', () => {
      this.rank = select.value === '' ? undefined : Number(select.value);
      this.render();
    });
    return select;
  }

  sortBy(key: SortKey): void {
    this.sort = nextSort(this.sort, key);
    this.render();
  }

  private render(): void {
    clear(this.table);
    const head = h('tr', {});
    for (const c of this.columns) {
      const arrow = this.sort.key === c.key ? (this.sort.dir === 'asc' ? ' ▲' : ' ▼') : '';
      const th = h(
        'th',
        {
          'data-key': c.key,
          class: c.numeric ? 'num' : '',
          'aria-sort':
            this.sort.key === c.key
              ? this.sort.dir === 'asc'
                ? 'ascending'
                : 'descending'
              : undefined,
        },
        c.label + arrow,
      );
      th.addEventListener('click', () => this.sortBy(c.key));
      head.appendChild(th);
    }
    this.table.appendChild(h('thead', {}, head));
    const body = h('tbody', {});
    const rows = filterRows(filterByRank(this.rows, this.rank), this.query);
    if (this.group === 'none') {
      for (const r of sortRows(rows, this.sort)) body.appendChild(this.row(r));
    } else {
      for (const g of groupRows(rows, this.group, this.sort)) {
        const label = this.group === 'cell' ? cellPath(g.key) : g.key;
        body.appendChild(
          h(
            'tr',
            { class: 'group-row', title: g.key },
            h('td', { colspan: this.columns.length - 4 }, `${label} (${g.rows.length})`),
            h('td', { class: 'num' }, String(g.calls)),
            h('td', { class: 'num' }, formatMs(g.totalMs)),
            h('td', { class: 'num' }, formatMs(g.avgMs)),
            h('td', { class: 'num' }, formatPercent(g.share)),
          ),
        );
        for (const r of g.rows) body.appendChild(this.row(r));
      }
    }
    this.table.appendChild(body);
  }

  private row(r: OpRow): HTMLTableRowElement {
    const tr = h(
      'tr',
      { class: 'op', title: r.fullName },
      h('td', {}, r.name),
      this.columns.length > COLUMNS.length
        ? h('td', { class: 'num rank' }, String(r.rank ?? ''))
        : null,
      h('td', {}, r.type),
      h('td', { title: r.scope }, cellPath(r.scope)),
      h('td', { class: 'num', 'data-value': r.calls }, String(r.calls)),
      h('td', { class: 'num total', 'data-value': r.totalMs }, formatMs(r.totalMs)),
      h('td', { class: 'num avg', 'data-value': r.avgMs }, formatMs(r.avgMs)),
      h(
        'td',
        { class: 'num share', 'data-value': r.share },
        h('span', { class: 'share-bar' }),
        formatPercent(r.share),
      ),
    );
    const bar = tr.querySelector<HTMLElement>('.share-bar');
    if (bar) bar.style.width = `${Math.round(r.share * 60)}px`;
    tr.addEventListener('click', () => this.onPick(r));
    return tr;
  }
}

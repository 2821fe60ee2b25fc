// The training dashboard: runs, scalar charts, histograms, images, tensor statistics and the
// recorded graphs of a summary document, updated in place as `--follow` appends. Knows nothing
// of VS Code: the panel (and the notebook renderer) give it a host.
import type { SummaryDocument, SummaryRun } from '../../src/contracts/summaryDocument';
import { clear, h } from '../common/dom';
import { scalarsCsv } from './csv';
import { histogramChart, type HistogramMode } from './histogramView';
import { imageViewer, tensorTable } from './mediaViews';
import { mergeSummary } from '../../src/summary/merge';
import { ScalarChart, type ChartOptions } from './scalarChart';
import type { XAxis } from './series';

export interface SummaryViewHost {
  exportFile?(name: string, format: 'png' | 'svg' | 'csv', data: string): void;
  openGraph?(run: string): void;
}

type Tab = 'scalars' | 'histograms' | 'images' | 'tensors';
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
  '#7f7f7f', '#bcbd22', '#17becf']; // prettier-ignore

export class SummaryView {
  readonly charts = new Map<string, ScalarChart>();
  private selected: Set<string>;
  private options: ChartOptions = { axis: 'step', log: false, smoothing: 0.6 };
  private tab: Tab = 'scalars';
  private histogramMode: HistogramMode = 'offset';
  private filter = '';
  private readonly status = h('div', { class: 'status' });
  private readonly body = h('div', { class: 'tab-body' });
  private readonly runsBox = h('div', { class: 'runs' });

  constructor(
    readonly root: HTMLElement,
    private doc: SummaryDocument,
    private readonly host: SummaryViewHost = {},
    runs?: string[],
  ) {
    root.classList.add('mindscope-summary');
    this.selected = new Set(runs?.length ? runs : doc.runs.map((r) => r.name));
    clear(root);
    root.append(
      h('header', {}, this.runsBox, this.controls()),
      this.tabs(),
      this.status,
      this.body,
    );
    this.renderRuns();
    this.render();
  }

  /** Appends a `--follow` update: charts get their new points without being rebuilt. */
  append(update: SummaryDocument): void {
    const before = new Set(this.doc.runs.map((r) => r.name));
    const changed = mergeSummary(this.doc, update);
    const newRuns = this.doc.runs.filter((r) => !before.has(r.name));
    for (const run of newRuns) this.selected.add(run.name);
    if (newRuns.length) this.renderRuns();
    const newTag = [...changed].some((tag) => !this.charts.has(tag));
    if (this.tab !== 'scalars' || newTag || newRuns.length) this.render();
    else for (const tag of changed) this.updateChart(tag);
    this.renderStatus();
  }

  setStatus(text: string, live: boolean): void {
    this.status.dataset.live = String(live);
    this.status.dataset.note = text;
    this.renderStatus();
  }

  private runs(): SummaryRun[] {
    return this.doc.runs.filter((r) => this.selected.has(r.name));
  }

  private color(run: string): string {
    const index = this.doc.runs.findIndex((r) => r.name === run);
    return PALETTE[Math.max(0, index) % PALETTE.length] ?? '#888888';
  }

  private controls(): HTMLElement {
    const smoothing = h('input', {
      type: 'range',
      min: 0,
      max: 0.99,
      step: 0.01,
      value: 0.6,
      class: 'smoothing',
    });
    const smoothingValue = h('span', { class: 'smoothing-value' }, '0.60');
    smoothing.addEventListener('input', () => {
      smoothingValue.textContent = Number(smoothing.value).toFixed(2);
      this.setOptions({ smoothing: Number(smoothing.value) });
    });
    const axis = h('select', { class: 'x-axis' }, ...(['step', 'relative', 'wall'] as const).map(
      (a) => h('option', { value: a }, a === 'relative' ? 'relative time' : a === 'wall' ? 'wall time' : 'step'),
    )); // prettier-ignore
    axis.addEventListener('change', () => this.setOptions({ axis: axis.value as XAxis }));
    const log = h('input', { type: 'checkbox', class: 'log-scale' });
    log.addEventListener('change', () => this.setOptions({ log: log.checked }));
    const filter = h('input', { type: 'search', placeholder: 'filter tags', class: 'tag-filter' });
    filter.addEventListener('input', () => {
      this.filter = filter.value.toLowerCase();
      this.render();
    });
    const csv = h(
      'button',
      { class: 'export-csv', title: 'Save the shown scalars as CSV' },
      'Export CSV',
    );
    csv.addEventListener('click', () => {
      const tags = new Set([...this.charts.keys()]);
      this.host.exportFile?.('scalars', 'csv', scalarsCsv(this.runs(), tags));
    });
    return h(
      'div',
      { class: 'controls' },
      h('label', {}, 'Smoothing ', smoothing, smoothingValue),
      h('label', {}, 'X ', axis),
      h('label', {}, log, ' log scale'),
      filter,
      csv,
    );
  }

  private tabs(): HTMLElement {
    const names: Tab[] = ['scalars', 'histograms', 'images', 'tensors'];
    const bar = h('nav', { class: 'tabs' });
    for (const name of names) {
      const b = h(
        'button',
        { class: `tab ${name === this.tab ? 'active' : ''}`, 'data-tab': name },
        name,
      );
      b.addEventListener('click', () => {
        this.tab = name;
        for (const other of Array.from(bar.children)) other.classList.toggle('active', other === b);
        this.render();
      });
      bar.append(b);
    }
    return bar;
  }

  private setOptions(change: Partial<ChartOptions>): void {
    this.options = { ...this.options, ...change };
    for (const chart of this.charts.values()) chart.setOptions(this.options);
  }

  private renderRuns(): void {
    clear(this.runsBox);
    for (const run of this.doc.runs) {
      const box = h('input', {
        type: 'checkbox',
        class: 'run-toggle',
        'data-run': run.name,
        checked: this.selected.has(run.name),
      });
      box.addEventListener('change', () => {
        if (box.checked) this.selected.add(run.name);
        else this.selected.delete(run.name);
        this.render();
      });
      const swatch = h('span', { class: 'swatch' });
      swatch.style.background = this.color(run.name);
      const graph = run.graphs.length
        ? h(
            'button',
            {
              class: 'open-graph',
              'data-run': run.name,
              title: 'Open the recorded graph in the graph panel',
            },
            'graph',
          )
        : null;
      graph?.addEventListener('click', () => this.host.openGraph?.(run.name));
      this.runsBox.append(
        h('label', { class: 'run', title: run.path }, box, swatch, run.name, graph),
      );
    }
  }

  private tagShown(tag: string): boolean {
    return !this.filter || tag.toLowerCase().includes(this.filter);
  }

  private render(): void {
    clear(this.body);
    this.charts.clear();
    const runs = this.runs();
    if (this.tab === 'scalars') this.renderScalars(runs);
    else if (this.tab === 'histograms') this.renderHistograms(runs);
    else if (this.tab === 'images') {
      for (const run of runs)
        for (const t of run.images)
          if (this.tagShown(t.tag)) this.body.append(imageViewer(run.name, t.tag, t.samples));
    } else {
      for (const run of runs)
        for (const t of run.tensors)
          if (this.tagShown(t.tag)) this.body.append(tensorTable(run.name, t.tag, t.samples));
    }
    if (!this.body.firstChild)
      this.body.append(h('p', { class: 'hint' }, `No ${this.tab} in the selected runs.`));
    this.renderStatus();
  }

  private renderScalars(runs: SummaryRun[]): void {
    const tags = [...new Set(runs.flatMap((r) => r.scalars.map((s) => s.tag)))]
      .filter((t) => this.tagShown(t))
      .sort();
    const grid = h('div', { class: 'chart-grid' });
    for (const tag of tags) {
      const chart = new ScalarChart(tag, this.options, (t, format, data) =>
        this.host.exportFile?.(t, format, data),
      );
      this.charts.set(tag, chart);
      grid.append(chart.element);
      this.updateChart(tag);
    }
    this.body.append(grid);
  }

  private updateChart(tag: string): void {
    const chart = this.charts.get(tag);
    if (!chart) return;
    const series = this.runs().flatMap((run) => {
      const s = run.scalars.find((x) => x.tag === tag);
      return s ? [{ run: run.name, color: this.color(run.name), series: s }] : [];
    });
    chart.setData(series);
  }

  private renderHistograms(runs: SummaryRun[]): void {
    const mode = h(
      'select',
      { class: 'histogram-mode' },
      h('option', { value: 'offset' }, 'offset'),
      h('option', { value: 'overlay' }, 'overlay'),
    );
    mode.value = this.histogramMode;
    mode.addEventListener('change', () => {
      this.histogramMode = mode.value as HistogramMode;
      this.render();
    });
    this.body.append(h('label', {}, 'View ', mode));
    for (const run of runs)
      for (const t of run.histograms)
        if (this.tagShown(t.tag))
          this.body.append(histogramChart(run.name, t.tag, t.samples, this.histogramMode));
  }

  private renderStatus(): void {
    const points = this.doc.runs.reduce(
      (n, r) => n + r.scalars.reduce((m, s) => m + s.steps.length, 0),
      0,
    );
    this.status.dataset.points = String(points);
    const issues = this.doc.issues.length;
    const note = this.status.dataset.note ?? '';
    this.status.textContent = [`${this.doc.runs.length} runs`, `${points} scalar points`, issues ? `${issues} damaged records` : '', note]
      .filter(Boolean).join(' · '); // prettier-ignore
    this.status.title = this.doc.issues
      .slice(0, 20)
      .map((i) => i.message)
      .join('\n');
  }
}

// The export report view: verification table, quantization, op histograms. Knows nothing of
// VS Code: the panel gives it a host. Text goes in through textContent only (common/dom).
import type { Artefact, ExportReport } from '../../src/contracts/exportReport';
import { clear, h } from '../common/dom';
import { formatBytes, summaryLine, verificationRows } from './rows';

export interface ExportViewHost {
  reveal(index: number): void;
  openGraph(index: number): void;
  openSnippet(index: number): void;
}

const HEAD = [
  'Artefact',
  'Runtime',
  'Size',
  'Max abs error',
  'Max rel error',
  'Latency',
  'vs eager',
  'Second batch',
  'Verified',
  '',
];

export class ExportView {
  constructor(
    readonly root: HTMLElement,
    doc: ExportReport,
    private readonly host: ExportViewHost,
  ) {
    root.classList.add('mindscope-export');
    clear(root);
    root.append(
      h('header', {}, h('div', { class: 'facts' }, summaryLine(doc))),
      h('h3', {}, 'Verification against the eager Cell'),
      this.table(doc),
      ...doc.artefacts.filter((a) => a.quantization).map((a) => quantization(a)),
      h('h3', {}, 'Op types of each exported graph'),
      h('div', { class: 'histograms' }, ...doc.artefacts.map((a) => histogram(a))),
    );
  }

  private table(doc: ExportReport): HTMLElement {
    const body = verificationRows(doc).map((r) =>
      h(
        'tr',
        { class: `row ${r.status}`, 'data-format': r.format },
        h('td', { title: doc.artefacts[r.index]?.file ?? '' }, `${r.format} · ${r.file}`),
        h('td', {}, r.runtime),
        h('td', { class: 'num' }, r.size),
        h('td', { class: 'num abs' }, r.maxAbsError),
        h('td', { class: 'num' }, r.maxRelError),
        h('td', { class: 'num' }, r.latency),
        h('td', { class: 'num' }, r.speedup),
        h('td', {}, r.dynamic),
        h(
          'td',
          { class: 'status', title: r.detail },
          r.status === 'fail' ? '✗ ' + r.detail : r.status === 'ok' ? '✓' : '≈ measured',
        ),
        h('td', { class: 'actions' }, ...this.actions(r.index, doc.artefacts[r.index])),
      ),
    );
    return h(
      'table',
      { class: 'verification' },
      h('thead', {}, h('tr', {}, ...HEAD.map((c) => h('th', {}, c)))),
      h('tbody', {}, ...body),
    );
  }

  private actions(index: number, artefact: Artefact | undefined): HTMLElement[] {
    const button = (label: string, title: string, run: () => void): HTMLElement => {
      const b = h('button', { title }, label);
      b.addEventListener('click', run);
      return b;
    };
    const out = [
      button('Reveal', 'Reveal the file in the explorer', () => this.host.reveal(index)),
      button('Graph', 'Open the exported graph in the graph view', () =>
        this.host.openGraph(index),
      ),
    ];
    if (artefact?.snippet) {
      out.push(
        button('Snippet', 'Open the generated inference script', () =>
          this.host.openSnippet(index),
        ),
      );
    }
    return out;
  }
}

function quantization(a: Artefact): HTMLElement {
  const q = a.quantization;
  if (!q) return h('div');
  const facts = [
    q.mode,
    `size ${formatBytes(a.bytes)} (${(q.sizeRatio * 100).toFixed(0)}% of float)`,
    q.latencyRatio === null ? 'latency —' : `latency ${q.latencyRatio.toPrecision(2)}× float`,
    q.calibBatches ? `${q.calibBatches} calibration batches` : 'no calibration',
  ];
  const layers = q.worstLayers
    ? h(
        'table',
        { class: 'worst' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Layer (node)'),
            h('th', {}, 'Op'),
            h('th', {}, 'SQNR vs float'),
            h('th', {}, 'Own QDQ SQNR'),
          ),
        ),
        h(
          'tbody',
          {},
          ...q.worstLayers.map((w) =>
            h(
              'tr',
              {},
              h('td', {}, w.node),
              h('td', {}, w.op),
              h('td', { class: 'num' }, w.sqnrDb === null ? '—' : `${w.sqnrDb.toFixed(1)} dB`),
              h(
                'td',
                { class: 'num' },
                w.localSqnrDb === null ? '—' : `${w.localSqnrDb.toFixed(1)} dB`,
              ),
            ),
          ),
        ),
      )
    : h('p', { class: 'hint' }, q.note ?? 'no per-layer errors');
  return h(
    'section',
    { class: 'quantization' },
    h('h3', {}, 'int8 quantization: the layers that lose the most'),
    h('div', { class: 'facts' }, facts.join(' · ')),
    layers,
  );
}

function histogram(a: Artefact): HTMLElement {
  const max = Math.max(1, ...a.opHistogram.map((o) => o.count));
  return h(
    'figure',
    { class: 'histogram', 'data-format': a.format },
    h('figcaption', {}, `${a.format}: ${a.opHistogram.reduce((n, o) => n + o.count, 0)} ops`),
    ...a.opHistogram.map((o) => {
      const fill = h('span', { class: 'fill' });
      // Through the CSSOM: the CSP blocks inline style attributes.
      fill.style.width = `${Math.round((o.count / max) * 100)}%`;
      return h(
        'div',
        { class: 'bar' },
        h('span', { class: 'op' }, o.op),
        h('span', { class: 'track' }, fill),
        h('span', { class: 'count' }, String(o.count)),
      );
    }),
  );
}

// Images with a step slider, and tensor statistics per step.
import type { ImageSample, TensorSample } from '../../src/contracts/summaryDocument';
import { h } from '../common/dom';
import { fmt } from './scalarChart';

/** Only PNG data from the document becomes an <img> source (CSP allows data: images). */
export function pngSource(base64: string): string | undefined {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? `data:image/png;base64,${base64}` : undefined;
}

export function imageViewer(run: string, tag: string, samples: ImageSample[]): HTMLElement {
  const img = h('img', { class: 'summary-image', alt: tag });
  const label = h('span', { class: 'step-label' });
  const slider = h('input', {
    type: 'range',
    min: 0,
    max: Math.max(0, samples.length - 1),
    value: Math.max(0, samples.length - 1),
    class: 'step-slider',
  });
  const show = (): void => {
    const sample = samples[Number(slider.value)];
    if (!sample) return;
    const src = pngSource(sample.png);
    if (src) img.src = src;
    img.style.width = `${Math.max(64, Math.min(320, sample.width * 4))}px`;
    label.textContent = `step ${sample.step} · ${sample.width}×${sample.height}`;
  };
  slider.addEventListener('input', show);
  show();
  return h(
    'div',
    { class: 'image-viewer', 'data-tag': tag, 'data-run': run, 'data-images': samples.length },
    h('h4', {}, tag, h('span', { class: 'hint' }, ` ${run}`)),
    img,
    h('div', { class: 'slider-row' }, slider, label),
  );
}

const num = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : fmt(v);

export function tensorTable(run: string, tag: string, samples: TensorSample[]): HTMLElement {
  const head = ['step', 'shape', 'dtype', 'min', 'max', 'mean', 'std', 'NaN', 'Inf'];
  const rows = samples
    .slice()
    .reverse()
    .map((t) => {
      const st = t.stats;
      const inf = st ? st.posInfCount + st.negInfCount : 0;
      const bad = st && (st.nanCount || inf) ? 'nonfinite' : '';
      return h(
        'tr',
        { class: bad },
        ...[String(t.step), `[${t.dims.join(', ')}]`, t.dtype, num(st?.min), num(st?.max),
          num(st?.mean), num(st?.std), String(st?.nanCount ?? '—'), String(st ? inf : '—')]
          .map((c) => h('td', {}, c)), // prettier-ignore
      );
    });
  return h(
    'div',
    { class: 'tensor-stats', 'data-tag': tag, 'data-run': run },
    h('h4', {}, tag, h('span', { class: 'hint' }, ` ${run}`)),
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, c)))),
      h('tbody', {}, ...rows),
    ),
  );
}

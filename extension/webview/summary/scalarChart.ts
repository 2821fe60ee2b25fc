// One scalar tag as a canvas line chart: several runs overlaid, EMA smoothing, x by step /
// relative / wall time, log scale, hover read-out, wheel zoom and drag pan. Downsampled for
// drawing only; the read-out and the exports use every point.
import { displayText } from '../common/bidi';
import { h } from '../common/dom';
import { chartSvg, type SvgLine } from './svgExport';
import {
  downsample,
  extent,
  nearest,
  padRange,
  smooth,
  ticks,
  toArray,
  xValues,
  type XAxis,
} from './series';
import type { ScalarSeries } from '../../src/contracts/summaryDocument';

export interface ChartSeries {
  run: string;
  color: string;
  series: ScalarSeries;
}

export interface ChartOptions {
  axis: XAxis;
  log: boolean;
  smoothing: number;
}

interface Prepared extends ChartSeries {
  xs: Float64Array;
  /** NaN where the value was NaN/Inf (null in the document). */
  raw: Float64Array;
  smoothed: Float64Array;
}

interface View {
  x: [number, number];
  y: [number, number];
  width: number;
  /** Per series, the indices drawn. */
  picks: number[][];
}

const HEIGHT = 220;
const PAD = { left: 52, right: 12, top: 10, bottom: 24 };

export class ScalarChart {
  readonly element: HTMLElement;
  private readonly canvas = h('canvas', { class: 'plot' });
  private readonly readout = h('div', { class: 'readout' });
  private readonly legend = h('ul', { class: 'legend' });
  private prepared: Prepared[] = [];
  private zoom: [number, number] | undefined;
  private hoverX: number | undefined;
  private frame = 0;
  /** How long the last draw took (ms): the panel bench reads it. */
  lastDrawMs = 0;
  /** false draws every point (the panel bench's peer). */
  downsampling = true;

  constructor(
    readonly tag: string,
    private options: ChartOptions,
    private readonly exportChart: (tag: string, format: 'png' | 'svg', data: string) => void,
  ) {
    const png = h('button', { class: 'export-png', title: 'Save this chart as PNG' }, 'PNG');
    const svg = h('button', { class: 'export-svg', title: 'Save this chart as SVG' }, 'SVG');
    const reset = h('button', { class: 'reset-zoom', title: 'Show every step' }, 'Reset zoom');
    png.addEventListener('click', () => this.exportChart(tag, 'png', this.canvas.toDataURL()));
    svg.addEventListener('click', () => this.exportChart(tag, 'svg', this.toSvg()));
    reset.addEventListener('click', () => this.resetZoom());
    this.element = h(
      'div',
      { class: 'chart', 'data-tag': tag },
      h('div', { class: 'chart-head' }, h('h4', {}, tag), reset, png, svg),
      this.canvas,
      this.readout,
      this.legend,
    );
    this.listen();
  }

  setData(series: ChartSeries[]): void {
    this.prepared = series.map((s) => {
      const raw = toArray(s.series.values);
      return { run: s.run, color: s.color, series: s.series, xs: xValues(s.series, this.options.axis),
        raw, smoothed: smooth(raw, this.options.smoothing) }; // prettier-ignore
    });
    this.legend.replaceChildren(
      ...this.prepared.map((p) => {
        const swatch = h('span', { class: 'swatch' });
        swatch.style.background = p.color;
        const last = p.raw[p.raw.length - 1] ?? NaN;
        return h(
          'li',
          { class: 'series', 'data-run': p.run, 'data-points': p.raw.length },
          swatch,
          h('span', { class: 'run' }, p.run),
          h('span', { class: 'count' }, ` ${p.raw.length} points`),
          h('span', { class: 'last' }, Number.isNaN(last) ? '' : ` · last ${fmt(last)}`),
        );
      }),
    );
    this.requestDraw();
  }

  setOptions(options: ChartOptions): void {
    const axisChanged = options.axis !== this.options.axis;
    this.options = options;
    if (axisChanged) this.zoom = undefined;
    this.setData(this.prepared.map((p) => ({ run: p.run, color: p.color, series: p.series })));
  }

  private fullRange(): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of this.prepared) {
      if (!p.xs.length) continue;
      lo = Math.min(lo, p.xs[0] ?? lo);
      hi = Math.max(hi, p.xs[p.xs.length - 1] ?? hi);
    }
    if (!(lo <= hi)) return [0, 1];
    return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
  }

  private setZoom(range: [number, number] | undefined): void {
    this.zoom = range;
    this.requestDraw();
  }

  requestDraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Geometry of the current view: x range, y range, and the points each series draws. */
  private view(): View {
    const x = this.zoom ?? this.fullRange();
    const width = Math.max(200, this.element.clientWidth || 480);
    const columns = width - PAD.left - PAD.right;
    let lo = Infinity;
    let hi = -Infinity;
    const picks = this.prepared.map((p) => {
      const chosen = downsample(p.xs, p.raw, x[0], x[1], this.downsampling ? columns : Infinity);
      for (const values of this.options.smoothing > 0 ? [p.raw, p.smoothed] : [p.raw]) {
        const e = extent(values, this.options.log, chosen);
        if (e) [lo, hi] = [Math.min(lo, e[0]), Math.max(hi, e[1])];
      }
      return chosen;
    });
    const y =
      lo <= hi
        ? padRange(lo, hi, this.options.log)
        : this.options.log
          ? ([0.1, 1] as [number, number])
          : ([0, 1] as [number, number]);
    return { x, y, width, picks };
  }

  draw(): void {
    const started = performance.now();
    const { x, y, width, picks } = this.view();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = width * ratio;
    this.canvas.height = HEIGHT * ratio;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${HEIGHT}px`;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    const style = getComputedStyle(this.element);
    const fg = style.getPropertyValue('--vscode-foreground').trim() || '#888';
    const px = this.mapper(x, y, width);
    ctx.font = '10px sans-serif';
    ctx.fillStyle = fg;
    ctx.strokeStyle = 'rgba(128,128,128,0.25)';
    for (const t of ticks(...this.yTickRange(y))) {
      const py = px.y(this.options.log ? 10 ** t : t);
      ctx.beginPath();
      ctx.moveTo(PAD.left, py);
      ctx.lineTo(width - PAD.right, py);
      ctx.stroke();
      ctx.fillText(displayText(fmt(this.options.log ? 10 ** t : t)), 2, py + 3);
    }
    for (const t of ticks(x[0], x[1])) ctx.fillText(displayText(fmt(t)), px.x(t) - 8, HEIGHT - 6);
    const smoothing = this.options.smoothing > 0;
    this.prepared.forEach((p, k) => {
      const chosen = picks[k] ?? [];
      if (smoothing) this.line(ctx, p, p.raw, chosen, px, `${p.color}55`);
      this.line(ctx, p, smoothing ? p.smoothed : p.raw, chosen, px, p.color);
    });
    if (this.hoverX !== undefined) {
      ctx.strokeStyle = fg;
      ctx.beginPath();
      ctx.moveTo(px.x(this.hoverX), PAD.top);
      ctx.lineTo(px.x(this.hoverX), HEIGHT - PAD.bottom);
      ctx.stroke();
    }
    this.lastDrawMs = performance.now() - started;
  }

  private yTickRange(y: [number, number]): [number, number] {
    return this.options.log ? [Math.log10(y[0]), Math.log10(y[1])] : y;
  }

  private mapper(x: [number, number], y: [number, number], width: number) {
    const w = width - PAD.left - PAD.right;
    const hgt = HEIGHT - PAD.top - PAD.bottom;
    const [ylo, yhi] = this.options.log ? [Math.log10(y[0]), Math.log10(y[1])] : y;
    return {
      x: (v: number): number => PAD.left + ((v - x[0]) / (x[1] - x[0])) * w,
      y: (v: number): number => {
        const t = this.options.log ? Math.log10(v) : v;
        return PAD.top + (1 - (t - ylo) / (yhi - ylo || 1)) * hgt;
      },
      invertX: (p: number): number => x[0] + ((p - PAD.left) / w) * (x[1] - x[0]),
    };
  }

  private line(
    ctx: CanvasRenderingContext2D,
    p: Prepared,
    ys: Float64Array,
    picks: number[],
    px: { x(v: number): number; y(v: number): number },
    color: string,
  ): void {
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let open = false;
    for (const i of picks) {
      const v = ys[i] ?? NaN;
      if (Number.isNaN(v) || (this.options.log && v <= 0)) {
        open = false;
        continue;
      }
      const [cx, cy] = [px.x(p.xs[i] ?? 0), px.y(v)];
      if (open) ctx.lineTo(cx, cy);
      else ctx.moveTo(cx, cy);
      open = true;
    }
    ctx.stroke();
  }

  private listen(): void {
    let drag: { start: number; range: [number, number] } | undefined;
    const dataX = (e: MouseEvent): number => {
      const x = this.zoom ?? this.fullRange();
      const width = Math.max(200, this.element.clientWidth || 480);
      const rect = this.canvas.getBoundingClientRect();
      return this.mapper(x, [0, 1], width).invertX(e.clientX - rect.left);
    };
    this.canvas.addEventListener('mousemove', (e) => {
      if (drag) {
        const [lo] = this.zoom ?? this.fullRange();
        this.panBy(drag.range[0] - lo - (dataX(e) - drag.start));
      }
      this.hover(dataX(e));
    });
    this.canvas.addEventListener('mouseleave', () => (this.hoverX = undefined));
    this.canvas.addEventListener('mousedown', (e) => {
      drag = { start: dataX(e), range: this.zoom ?? this.fullRange() };
    });
    window.addEventListener('mouseup', () => (drag = undefined));
    this.canvas.addEventListener('dblclick', () => this.setZoom(undefined));
    this.canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoomAt(dataX(e), e.deltaY > 0 ? 1.25 : 0.8);
      },
      { passive: false },
    );
  }

  resetZoom(): void {
    this.setZoom(undefined);
  }

  /** Moves the x range by `dx` data units (what a drag does). */
  panBy(dx: number): void {
    const [lo, hi] = this.zoom ?? this.fullRange();
    this.setZoom([lo + dx, hi + dx]);
  }

  /** Zoom the x axis by `factor` around `at` (data units); the panel bench calls it too. */
  zoomAt(at: number, factor: number): void {
    const [lo, hi] = this.zoom ?? this.fullRange();
    this.setZoom([at - (at - lo) * factor, at + (hi - at) * factor]);
  }

  /** The read-out at data x `at`: every run's nearest point, raw and smoothed. */
  hover(at: number): void {
    this.hoverX = at;
    const lines = this.prepared.map((p) => {
      const i = nearest(p.xs, at);
      if (i < 0) return '';
      const raw = p.raw[i] ?? NaN;
      const sm = p.smoothed[i] ?? NaN;
      const smoothed =
        this.options.smoothing > 0 && !Number.isNaN(sm) ? ` (smoothed ${fmt(sm)})` : '';
      return `${p.run}: step ${p.series.steps[i] ?? '?'} = ${Number.isNaN(raw) ? 'NaN/Inf' : fmt(raw)}${smoothed}`;
    });
    this.readout.textContent = lines.filter(Boolean).join(' · ');
    this.requestDraw();
  }

  toSvg(): string {
    const { x, y, width, picks } = this.view();
    const px = this.mapper(x, y, width);
    const lines: SvgLine[] = this.prepared.map((p, k) => {
      const ys = this.options.smoothing > 0 ? p.smoothed : p.raw;
      const points: [number, number][] = [];
      for (const i of picks[k] ?? []) {
        const v = ys[i] ?? NaN;
        if (Number.isNaN(v) || (this.options.log && v <= 0)) continue;
        points.push([px.x(p.xs[i] ?? 0), px.y(v)]);
      }
      return { label: p.run, color: p.color, points };
    });
    return chartSvg(this.tag, width, HEIGHT, lines);
  }
}

export function fmt(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(2);
  return Number(v.toPrecision(4)).toString();
}

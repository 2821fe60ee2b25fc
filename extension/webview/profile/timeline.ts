// The timeline on canvas: rows of events, wheel to zoom around the cursor, drag to pan,
// hover for the name and duration, click to reveal the op.
import { h } from '../common/dom';
import { formatMs } from '../common/format';
import { hue } from '../graph/render';
import { eventAt, visibleSpans, type TimelineModel } from './timelineModel';
import { displayText } from '../common/bidi';

const ROW_H = 18;
const LABEL_W = 200;
const AXIS_H = 20;
export const FRAME_MARK = 'mindscope:timeline-frame';

export class Timeline {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly tip: HTMLElement;
  private t0: number;
  private t1: number;
  private frame = 0;
  lastFrameMs = 0;
  private frames = 0;

  constructor(
    private readonly model: TimelineModel,
    private readonly onPick: (name: string) => void,
  ) {
    this.t0 = model.start;
    this.t1 = model.end;
    // The lanes are drawn, not DOM: name them for screen readers (and tests).
    const lanes = [...new Set(model.rows.map((r) => r.label))];
    this.canvas = h('canvas', {
      class: 'timeline-canvas',
      role: 'img',
      'aria-label': `Timeline lanes: ${lanes.join('; ')}`,
    });
    this.tip = h('div', { class: 'timeline-tip' });
    this.element = h('div', { class: 'timeline' }, this.canvas, this.tip);
    this.canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    this.canvas.addEventListener('pointerdown', (e) => this.onDrag(e));
    this.canvas.addEventListener('pointermove', (e) => this.onHover(e));
    this.canvas.addEventListener('pointerleave', () => (this.tip.style.display = 'none'));
    new ResizeObserver(() => this.requestDraw()).observe(this.element);
    // A theme change (a class on <body>) changes the colours the canvas reads.
    new MutationObserver(() => this.requestDraw()).observe(document.body, {
      attributes: true,
      attributeFilter: ['class'],
    });
  }

  /** Shows [t0, t1] (µs); the next frame draws it. */
  setWindow(t0: number, t1: number): void {
    const span = Math.max(1, t1 - t0);
    this.t0 = t0;
    this.t1 = t0 + span;
    this.requestDraw();
  }

  window(): [number, number] {
    return [this.t0, this.t1];
  }

  requestDraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws one frame now and returns how long it took (ms). */
  draw(): number {
    const start = performance.now();
    const ctx = this.context();
    if (!ctx) return 0;
    const { width, height } = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = width / ratio - LABEL_W;
    const pxPerUs = w / (this.t1 - this.t0);
    const css = getComputedStyle(this.element);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px sans-serif';
    this.drawAxis(ctx, w);
    this.model.rows.forEach((row, r) => {
      const y = AXIS_H + r * ROW_H;
      ctx.fillStyle = css.getPropertyValue('--tl-label') || '#aaa';
      ctx.fillText(displayText(row.label.replace(' (MindSpore)', '')), 4, y + 13, LABEL_W - 8);
      ctx.save();
      ctx.beginPath();
      ctx.rect(LABEL_W, y, w, ROW_H);
      ctx.clip();
      for (const span of visibleSpans(row, this.t0, this.t1, pxPerUs)) {
        const name = row.names[span.index] ?? '';
        ctx.fillStyle = `hsl(${hue(opType(name))}, 45%, 45%)`;
        ctx.fillRect(LABEL_W + span.x, y + 1, span.width, ROW_H - 2);
        if (span.width > 40) {
          ctx.fillStyle = '#fff';
          ctx.fillText(displayText(shortName(name)), LABEL_W + span.x + 3, y + 13, span.width - 6);
        }
      }
      ctx.restore();
    });
    this.lastFrameMs = performance.now() - start;
    // A user-timing entry, so that benchmarks can read frame times without hooks.
    if (++this.frames % 1000 === 0) performance.clearMeasures(FRAME_MARK);
    performance.measure(FRAME_MARK, { start });
    return this.lastFrameMs;
  }

  private context(): CanvasRenderingContext2D | null {
    const ratio = window.devicePixelRatio || 1;
    const cssWidth = this.element.clientWidth || 800;
    const cssHeight = AXIS_H + this.model.rows.length * ROW_H + 4;
    const width = Math.round(cssWidth * ratio);
    const height = Math.round(cssHeight * ratio);
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
      this.canvas.style.height = `${cssHeight}px`;
    }
    return this.canvas.getContext('2d');
  }

  private drawAxis(ctx: CanvasRenderingContext2D, w: number): void {
    const span = this.t1 - this.t0;
    const step = niceStep(span / 8);
    ctx.fillStyle = getComputedStyle(this.element).getPropertyValue('--tl-label') || '#aaa';
    for (let t = Math.ceil(this.t0 / step) * step; t <= this.t1; t += step) {
      const x = LABEL_W + ((t - this.t0) / span) * w;
      ctx.fillRect(x, AXIS_H - 4, 1, 4);
      ctx.fillText(formatMs((t - this.model.start) / 1000), x + 2, AXIS_H - 6);
    }
  }

  private timeAt(clientX: number): number {
    const rect = this.canvas.getBoundingClientRect();
    const w = rect.width - LABEL_W;
    return this.t0 + ((clientX - rect.left - LABEL_W) / w) * (this.t1 - this.t0);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const t = this.timeAt(e.clientX);
    const factor = Math.exp(e.deltaY * 0.002);
    const full = this.model.end - this.model.start;
    const span = Math.min(full * 1.1, Math.max(1, (this.t1 - this.t0) * factor));
    const left = (t - this.t0) / (this.t1 - this.t0);
    this.setWindow(t - left * span, t - left * span + span);
  }

  private onDrag(e: PointerEvent): void {
    const startX = e.clientX;
    const [t0, t1] = [this.t0, this.t1];
    const perPx = (t1 - t0) / Math.max(1, this.canvas.getBoundingClientRect().width - LABEL_W);
    let moved = false;
    const move = (m: PointerEvent): void => {
      if (Math.abs(m.clientX - startX) > 2) moved = true;
      const dt = (startX - m.clientX) * perPx;
      this.setWindow(t0 + dt, t1 + dt);
    };
    const up = (u: PointerEvent): void => {
      this.canvas.removeEventListener('pointermove', move);
      this.canvas.removeEventListener('pointerup', up);
      if (!moved) {
        const hit = this.hit(u);
        if (hit) this.onPick(hit);
      }
    };
    this.canvas.setPointerCapture(e.pointerId);
    this.canvas.addEventListener('pointermove', move);
    this.canvas.addEventListener('pointerup', up);
  }

  private hit(e: PointerEvent): string | undefined {
    const rect = this.canvas.getBoundingClientRect();
    const r = Math.floor((e.clientY - rect.top - AXIS_H) / ROW_H);
    const row = this.model.rows[r];
    if (!row || e.clientX - rect.left < LABEL_W) return undefined;
    const slack = (2 * (this.t1 - this.t0)) / Math.max(1, rect.width - LABEL_W);
    const i = eventAt(row, this.timeAt(e.clientX), slack);
    return i === undefined ? undefined : row.names[i];
  }

  private onHover(e: PointerEvent): void {
    const rect = this.canvas.getBoundingClientRect();
    const r = Math.floor((e.clientY - rect.top - AXIS_H) / ROW_H);
    const row = this.model.rows[r];
    const slack = (2 * (this.t1 - this.t0)) / Math.max(1, rect.width - LABEL_W);
    const i = row ? eventAt(row, this.timeAt(e.clientX), slack) : undefined;
    if (!row || i === undefined) {
      this.tip.style.display = 'none';
      return;
    }
    const dur = ((row.ends[i] ?? 0) - (row.starts[i] ?? 0)) / 1000;
    this.tip.textContent = displayText(`${row.names[i] ?? ''} · ${formatMs(dur)}`);
    this.tip.style.display = 'block';
    this.tip.style.left = `${e.clientX - rect.left + 12}px`;
    this.tip.style.top = `${e.clientY - rect.top + 12}px`;
  }
}

function niceStep(raw: number): number {
  const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
  const m = raw / p;
  return (m < 2 ? 2 : m < 5 ? 5 : 10) * p;
}

/** "Default/…/conv1-Conv2d/Conv2D-op0" → "Conv2D". */
export function opType(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const dash = last.indexOf('-');
  return dash > 0 ? last.slice(0, dash) : last;
}

function shortName(name: string): string {
  const parts = name.split('/');
  return parts.slice(-2).join('/');
}

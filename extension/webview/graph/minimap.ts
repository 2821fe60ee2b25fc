// A small overview of the whole scene with the visible part outlined; click or drag to move.
import type { Layout } from './layout/geometry';
import type { Viewport } from './viewport';

export class Minimap {
  readonly canvas: HTMLCanvasElement;
  private layout: Layout | undefined;
  private scale = 1;

  constructor(private readonly viewport: Viewport) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'minimap';
    this.canvas.width = 160;
    this.canvas.height = 112;
    viewport.onChange(() => this.draw());
    const jump = (e: PointerEvent): void => {
      const r = this.canvas.getBoundingClientRect();
      const x = (e.clientX - r.left) / this.scale;
      const y = (e.clientY - r.top) / this.scale;
      this.viewport.centre(x, y, this.viewport.view.k);
    };
    this.canvas.addEventListener('pointerdown', (e) => {
      jump(e);
      const move = (m: PointerEvent): void => jump(m);
      this.canvas.setPointerCapture(e.pointerId);
      this.canvas.addEventListener('pointermove', move);
      this.canvas.addEventListener('pointerup', () =>
        this.canvas.removeEventListener('pointermove', move),
      );
    });
  }

  setLayout(layout: Layout): void {
    this.layout = layout;
    // On the next frame, when the browser computes styles anyway (draw reads CSS colours).
    requestAnimationFrame(() => this.draw());
  }

  draw(): void {
    const ctx = this.canvas.getContext('2d');
    const layout = this.layout;
    if (!ctx || !layout) return;
    const { width, height } = this.canvas;
    this.scale = Math.min(width / Math.max(layout.width, 1), height / Math.max(layout.height, 1));
    const k = this.scale;
    const css = getComputedStyle(this.canvas);
    ctx.clearRect(0, 0, width, height);
    ctx.strokeStyle = css.getPropertyValue('--minimap-group') || '#888';
    for (const r of layout.groups.values())
      ctx.strokeRect(r.x * k, r.y * k, r.width * k, r.height * k);
    ctx.fillStyle = css.getPropertyValue('--minimap-node') || '#4a8';
    for (const r of layout.items.values()) {
      ctx.fillRect(r.x * k, r.y * k, Math.max(1, r.width * k), Math.max(1, r.height * k));
    }
    const v = this.viewport.view;
    const size = this.viewport.size();
    // Nothing to navigate when the whole graph is on screen.
    const whole =
      v.x >= 0 &&
      v.y >= 0 &&
      v.x + layout.width * v.k <= size.width &&
      v.y + layout.height * v.k <= size.height;
    this.canvas.style.visibility = whole ? 'hidden' : 'visible';
    ctx.strokeStyle = css.getPropertyValue('--minimap-view') || '#fc0';
    ctx.lineWidth = 1.5;
    ctx.strokeRect(
      (-v.x / v.k) * k,
      (-v.y / v.k) * k,
      (size.width / v.k) * k,
      (size.height / v.k) * k,
    );
  }
}

// Pan and zoom of the SVG scene: one transform on one <g>, applied once per animation frame.

export interface View {
  x: number;
  y: number;
  k: number;
}

export class Viewport {
  view: View = { x: 0, y: 0, k: 1 };
  private frame = 0;
  private known: { width: number; height: number } | undefined;
  private readonly listeners: ((v: View) => void)[] = [];

  constructor(
    private readonly svg: SVGSVGElement,
    private readonly scene: SVGGElement,
  ) {
    svg.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    svg.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    // When the panel is resized, the scene point at the centre stays at the centre.
    let last = { width: 0, height: 0 };
    new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      this.known = box?.width && box.height ? { width: box.width, height: box.height } : undefined;
      const size = this.size();
      if (last.width && last.height) {
        const { x, y, k } = this.view;
        this.set({
          x: x + (size.width - last.width) / 2,
          y: y + (size.height - last.height) / 2,
          k,
        });
      }
      last = size;
    }).observe(svg);
  }

  onChange(listener: (v: View) => void): void {
    this.listeners.push(listener);
  }

  set(view: View): void {
    this.view = { x: view.x, y: view.y, k: Math.min(4, Math.max(0.02, view.k)) };
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const { x, y, k } = this.view;
      this.scene.setAttribute('transform', `translate(${x},${y}) scale(${k})`);
      for (const l of this.listeners) l(this.view);
    });
  }

  /**
   * The view's size: as last reported by the ResizeObserver, so that asking for it right after
   * the drawing changed does not make the browser lay the page out an extra time.
   */
  size(): { width: number; height: number } {
    if (this.known) return this.known;
    const r = this.svg.getBoundingClientRect();
    return { width: r.width || 800, height: r.height || 600 };
  }

  /** Fits a width × height scene into the viewport, never zooming in past 1. */
  fit(width: number, height: number): void {
    const { width: w, height: h } = this.size();
    const k = Math.min(1, (w - 40) / Math.max(width, 1), (h - 40) / Math.max(height, 1));
    this.set({ x: (w - width * k) / 2, y: Math.max(20, (h - height * k) / 2), k });
  }

  /** Shows a scene rectangle whole and centred, as large as fits but never past 1:1. */
  show(r: { x: number; y: number; width: number; height: number }): void {
    const { width, height } = this.size();
    const fitK = Math.min(
      (width - 60) / Math.max(r.width, 1),
      (height - 60) / Math.max(r.height, 1),
    );
    const k = Math.max(0.05, Math.min(1, fitK));
    this.centre(r.x + r.width / 2, r.y + r.height / 2, k);
  }

  /** Centres the scene point (cx, cy). */
  centre(cx: number, cy: number, k = Math.max(this.view.k, 0.8)): void {
    const { width, height } = this.size();
    this.set({ x: width / 2 - cx * k, y: height / 2 - cy * k, k });
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const rect = this.svg.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    const { x, y, k } = this.view;
    const factor = Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015));
    const nk = Math.min(4, Math.max(0.02, k * factor));
    this.set({ x: px - ((px - x) * nk) / k, y: py - ((py - y) * nk) / k, k: nk });
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const start = { ...this.view, px: e.clientX, py: e.clientY };
    let moved = false;
    const move = (m: PointerEvent): void => {
      const dx = m.clientX - start.px;
      const dy = m.clientY - start.py;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 3) return;
      if (!moved) this.svg.setPointerCapture(e.pointerId);
      moved = true;
      this.set({ x: start.x + dx, y: start.y + dy, k: start.k });
    };
    const up = (): void => {
      this.svg.removeEventListener('pointermove', move);
      this.svg.removeEventListener('pointerup', up);
      if (moved) {
        // Swallow the click that ends a drag.
        this.svg.addEventListener('click', (c) => c.stopPropagation(), {
          capture: true,
          once: true,
        });
      }
    };
    this.svg.addEventListener('pointermove', move);
    this.svg.addEventListener('pointerup', up);
  }
}

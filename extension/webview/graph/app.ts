// The graph view: toolbar, SVG scene with pan/zoom, minimap and detail pane. Used by the graph
// panel, the .mindir editor and the notebook renderer alike; it knows nothing of VS Code.
import type { GraphDocument } from '../../src/contracts/graphDocument';
import type { SourceTarget } from '../../src/contracts/messages';
import { clear, h, s } from '../common/dom';
import { formatCount } from '../common/format';
import { detailFor } from './detail';
import {
  directItems,
  expandWithin,
  initialExpansion,
  isTransparent,
  visibleGraph,
  withCollapsed,
  withExpanded,
  type VisibleGraph,
  type VisibleItem,
} from './fold';
import { elkWarm, runElkInWorker } from './layout/elkWorker';
import type { Layout } from './layout/geometry';
import { layoutWhole } from './layout/benchWholeLayout';
import { itemSize } from './layout/layoutInput';
import { LevelLayouter, type ItemSize } from './layout/layoutLevels';
import { Minimap } from './minimap';
import { indexGraph, type GraphIndex, type ScopeInfo } from './model';
import { GraphScene } from './render';
import { search } from './search';
import { Viewport } from './viewport';

export interface GraphViewHost {
  openSource?(target: SourceTarget): void;
  rendered?(info: { visibleNodes: number; layoutMs: number }): void;
  /**
   * `levels` (default): each open Cell laid out on its own and cached; `whole`: the previous
   * single layout of everything visible, kept to compare the two in bench/.
   */
  layout?: 'levels' | 'whole';
  /** After how long a layout shows the busy state and a stand-in (tests set 0). */
  busyAfterMs?: number;
}

/** Visible items "expand all" may reach before it stops opening scopes. */
const EXPAND_ALL_LIMIT = 600;
/** Folded Cells whose content is laid out ahead of time, while the view is idle. */
const PREFETCH_LIMIT = 8;
/** Cells with more direct items than this are not laid out ahead of time (only when opened). */
const PREFETCH_MAX_ITEMS = 120;
/** A layout that takes longer shows "Laying out…" and a stand-in drawing meanwhile. */
const BUSY_AFTER_MS = 120;
/** Lets the browser finish showing a drawing before the idle work starts. */
const PREFETCH_DELAY_MS = 250;

export class GraphView {
  private readonly index: GraphIndex;
  private expanded: Set<string>;
  private selected: { id: string; kind: VisibleItem['kind'] | 'group' } | undefined;
  private matches: string[] = [];
  private matchAt = -1;
  private generation = 0;
  private current: { graph: VisibleGraph; layout: Layout } | undefined;
  /** Layouts by folding state (most recent last): folding back and forth is instant. */
  private readonly layouts = new Map<string, Layout>();
  /** Lays out the top and each open Cell on its own, and keeps what it laid out. */
  private readonly layouter = new LevelLayouter(runElkInWorker);
  /** Classes and sizes of the Cells whose content was laid out ahead of time. */
  private readonly prefetched = new Set<string>();
  /** Layouts past BUSY_AFTER_MS still running: the view shows it is busy while any is. */
  private busyLayouts = 0;
  private readonly scene: SVGGElement;
  private readonly drawing: GraphScene;
  private readonly svg: SVGSVGElement;
  private readonly viewport: Viewport;
  private readonly minimap: Minimap;
  private readonly detail: HTMLElement;
  private readonly status: HTMLElement;
  private readonly searchBox: HTMLInputElement;

  constructor(
    readonly root: HTMLElement,
    doc: GraphDocument,
    private readonly host: GraphViewHost = {},
  ) {
    const start = performance.now();
    this.index = indexGraph(doc);
    performance.measure('mindscope:graph-index', { start });
    this.expanded = initialExpansion(this.index);
    this.scene = s('g', { class: 'scene' });
    this.svg = s(
      'svg',
      { class: 'canvas' },
      s(
        'defs',
        {},
        s(
          'marker',
          {
            id: 'arrow',
            viewBox: '0 0 10 10',
            refX: 9,
            refY: 5,
            markerWidth: 8,
            markerHeight: 8,
            markerUnits: 'userSpaceOnUse',
            orient: 'auto-start-reverse',
          },
          s('path', { d: 'M0,0L10,5L0,10z', class: 'arrow' }),
        ),
      ),
      this.scene,
    );
    this.drawing = new GraphScene(this.index, {
      select: (id, kind) => this.select({ id, kind }),
      expand: (scope) => void this.toggle(scope, true),
      collapse: (scope) => void this.toggle(scope, false),
    });
    this.scene.appendChild(this.drawing.root);
    this.viewport = new Viewport(this.svg, this.scene);
    this.minimap = new Minimap(this.viewport);
    this.detail = h(
      'aside',
      { class: 'detail-pane' },
      h('p', { class: 'hint' }, 'Click a node for details; double-click a Cell to open it.'),
    );
    this.status = h('span', { class: 'status' });
    this.searchBox = h('input', {
      type: 'search',
      class: 'search',
      placeholder: 'Search name, op type or shape (e.g. Conv2D 16x32)',
    });
    this.svg.addEventListener('click', () => this.select(undefined));
    root.classList.add('mindscope-graph');
    clear(root);
    root.append(
      this.header(doc),
      this.toolbar(),
      h(
        'div',
        { class: 'body' },
        h('div', { class: 'stage' }, this.svg, this.minimap.canvas),
        this.detail,
      ),
    );
  }

  private header(doc: GraphDocument): HTMLElement {
    const m = doc.meta;
    const facts = [
      m.target,
      m.mode,
      `syntax ${m.syntaxLevel}`,
      `capture ${m.capture}`,
      `${m.counts.computeOps} compute ops`,
      `${formatCount(m.counts.parameterElements)} params`,
      `MindSpore ${m.mindsporeVersion}`,
    ];
    const error = doc.error
      ? h(
          'div',
          { class: 'error-banner' },
          `Compile failed: ${doc.error.message}`,
          doc.error.rule ? ` (${doc.error.rule.code})` : '',
          doc.error.file ? ` at ${doc.error.file}:${doc.error.line ?? '?'}` : '',
        )
      : null;
    return h('header', {}, h('div', { class: 'facts' }, facts.join(' · ')), error);
  }

  private toolbar(): HTMLElement {
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.searchBox.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void this.runSearch(this.searchBox.value), 150);
    });
    this.searchBox.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.nextMatch(e.shiftKey ? -1 : 1);
    });
    const button = (label: string, title: string, action: () => void): HTMLButtonElement => {
      const b = h('button', { title }, label);
      b.addEventListener('click', action);
      return b;
    };
    return h(
      'div',
      { class: 'toolbar' },
      this.searchBox,
      // Both change the whole drawing: fit it, or the view keeps looking where it was.
      button('Expand all', 'Open every Cell (bounded for very large graphs)', () => {
        void this.setExpanded(expandWithin(this.index, this.expanded, EXPAND_ALL_LIMIT), true);
      }),
      button('Fold all', 'Back to the top-level Cells', () => {
        void this.setExpanded(initialExpansion(this.index), true);
      }),
      button('Fit', 'Fit the graph in the view', () => this.fit()),
      this.status,
    );
  }

  /** Lays out and draws the current folding; resolves when it is on screen. */
  async render(fit = true): Promise<void> {
    const generation = ++this.generation;
    const t0 = performance.now();
    const graph = visibleGraph(this.index, this.expanded);
    const t1 = performance.now();
    const key = [...this.expanded].sort().join('\n');
    const known = this.layouts.get(key);
    const pending = known ? undefined : this.layout(graph);
    const busy = pending && this.whileBusy(pending, graph, generation, fit);
    const layout = known ?? (await pending);
    busy?.();
    if (!layout) return;
    const t2 = performance.now();
    this.layouts.delete(key);
    this.layouts.set(key, layout);
    if (this.layouts.size > 24) this.layouts.delete(this.layouts.keys().next().value ?? '');
    if (generation !== this.generation) return;
    this.current = { graph, layout };
    this.drawing.update(graph, layout);
    this.minimap.setLayout(layout);
    this.markSelection();
    const ops = graph.items.filter((i) => i.kind === 'op').length;
    const scopes = graph.items.length - ops;
    this.status.textContent = `${ops} ops, ${scopes} folded Cells · layout ${layout.ms.toFixed(0)} ms`;
    if (fit) this.fit();
    this.prefetch(graph, generation);
    // For bench/ and the browser's performance panel: where the time of one drawing went.
    performance.measure('mindscope:graph-fold', { start: t0, end: t1 });
    performance.measure('mindscope:graph-layout', {
      start: t1,
      end: t2,
      detail: known ? 'known folding' : layout.levels,
    });
    performance.measure('mindscope:graph-draw', { start: t2 });
    this.host.rendered?.({ visibleNodes: graph.items.length, layoutMs: layout.ms });
  }

  /**
   * When ELK takes longer than a glance, says so and draws a stand-in at once (boxes in rows,
   * straight edges), so the page never looks frozen; the real layout replaces it. Returns what
   * ends the busy state.
   */
  private whileBusy(
    pending: Promise<Layout>,
    graph: VisibleGraph,
    generation: number,
    fit: boolean,
  ): () => void {
    let finished = false;
    let shown = false;
    const timer = setTimeout(() => {
      if (finished || generation !== this.generation) return;
      shown = true;
      this.busyLayouts++;
      this.root.classList.add('busy');
      this.status.textContent = `Laying out ${formatCount(graph.items.length)} boxes…`;
      if (this.host.layout === 'whole') return;
      void this.layouter.provisional(graph, this.sizes(graph)).then((quick) => {
        if (finished || generation !== this.generation) return;
        this.drawing.update(graph, quick);
        this.minimap.setLayout(quick);
        if (fit) this.viewport.fit(quick.width, quick.height);
        performance.mark('mindscope:graph-provisional');
      });
    }, this.busyDelay());
    const done = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (shown && --this.busyLayouts === 0) this.root.classList.remove('busy');
    };
    void pending.then(done, done);
    return done;
  }

  /**
   * How long a layout may take before the stand-in is drawn. The view's first drawing does not
   * wait for a worker that has not laid anything out yet (it is still reading ELK's code, up
   * to seconds on a busy machine): its stand-in is drawn at once, the real layout follows.
   */
  private busyDelay(): number {
    const delay = this.host.busyAfterMs ?? BUSY_AFTER_MS;
    return this.current === undefined && this.host.layout !== 'whole' && !elkWarm() ? 0 : delay;
  }

  private layout(graph: VisibleGraph): Promise<Layout> {
    if (this.host.layout === 'whole') return layoutWhole(this.index, graph);
    return this.layouter.layout(graph, this.sizes(graph));
  }

  private sizes(graph: VisibleGraph): ItemSize {
    const items = new Map(graph.items.map((i) => [i.id, i]));
    return (id) => {
      const item = items.get(id);
      return item ? itemSize(this.index, item) : { width: 80, height: 40 };
    };
  }

  /**
   * While the view is idle, lays out the content of the largest folded Cells on screen, and of
   * the Cells inside them, one per idle period, so that opening one runs no ELK at all. Cells of a class and size done
   * before are skipped: their content is most likely the same, and so their layout (the cache
   * is keyed by content). Starts a moment after the drawing is on screen, stops when a newer
   * drawing starts.
   */
  private prefetch(graph: VisibleGraph, generation: number): void {
    const done = (): void => void performance.mark('mindscope:graph-idle');
    if (this.host.layout === 'whole') {
      done();
      return;
    }
    const bySize = (cells: (ScopeInfo | undefined)[]): ScopeInfo[] =>
      cells.filter((c) => c !== undefined).sort((a, b) => b.shownOps - a.shownOps);
    const folded = bySize(
      graph.items.filter((i) => i.kind === 'scope').map((i) => this.index.scopes.get(i.id)),
    );
    // Then one level deeper: the Cells inside those, which a user opens next.
    const inside = folded.flatMap((c) => c.children.map((id) => this.index.scopes.get(id)));
    const todo = [
      ...folded,
      ...bySize(inside).filter((c) => c.shownOps > 0 && !isTransparent(this.index, c.path)),
    ].filter((c) => directItems(this.index, c.path) <= PREFETCH_MAX_ITEMS);
    let left = PREFETCH_LIMIT;
    const step = async (): Promise<void> => {
      if (generation !== this.generation) return;
      const cell = todo.shift();
      if (!cell || left <= 0) {
        done();
        return;
      }
      const kind = `${cell.cellType ?? cell.name}:${cell.shownOps}`;
      if (!this.prefetched.has(kind)) {
        this.prefetched.add(kind);
        left--;
        const next = visibleGraph(this.index, withExpanded(this.index, this.expanded, [cell.path]));
        await this.layouter.prefetch(next, this.sizes(next), cell.path);
      }
      whenIdle(run);
    };
    // A failed guess costs nothing: the Cell is laid out when it is opened.
    const run = (): void => void step().catch(() => undefined);
    setTimeout(() => whenIdle(run), PREFETCH_DELAY_MS);
  }

  async setExpanded(expanded: Set<string>, fit = false): Promise<void> {
    this.expanded = expanded;
    await this.render(fit);
  }

  /** Opens or folds a Cell and keeps it in view. */
  async toggle(scope: string, open: boolean): Promise<void> {
    const next = open
      ? withExpanded(this.index, this.expanded, [scope])
      : withCollapsed(this.expanded, scope);
    await this.setExpanded(next);
    const layout = this.current?.layout;
    const r = layout?.groups.get(scope) ?? layout?.items.get(scope);
    if (r) this.viewport.show(r);
  }

  fit(): void {
    if (this.current) this.viewport.fit(this.current.layout.width, this.current.layout.height);
  }

  /** Shows an op given its full scoped name (from the profiler), opening its Cells. */
  async reveal(fullName: string): Promise<boolean> {
    const found = this.index.doc.nodes.find((n) => n.fullName === fullName);
    const node = found && this.index.nodes.get(found.id);
    if (!node) return false;
    await this.setExpanded(withExpanded(this.index, this.expanded, [node.scope]));
    this.select({ id: node.id, kind: 'op' });
    this.centreOn(node.id);
    return true;
  }

  private async runSearch(query: string): Promise<void> {
    this.matches = search(this.index, query);
    this.matchAt = -1;
    const scopes = this.matches.slice(0, 50).map((id) => this.index.nodes.get(id)?.scope ?? '');
    if (this.matches.length) {
      await this.setExpanded(withExpanded(this.index, this.expanded, scopes.filter(Boolean)));
    } else {
      this.markSelection();
    }
    this.status.textContent = query ? `${this.matches.length} matches` : this.status.textContent;
    if (this.matches.length) this.nextMatch(1);
  }

  private nextMatch(step: number): void {
    if (!this.matches.length) return;
    this.matchAt = (this.matchAt + step + this.matches.length) % this.matches.length;
    const id = this.matches[this.matchAt];
    if (!id) return;
    this.select({ id, kind: this.index.inputs.has(id) ? 'input' : 'op' });
    this.centreOn(id);
  }

  private centreOn(id: string): void {
    const r = this.current?.layout.items.get(id);
    if (r) this.viewport.centre(r.x + r.width / 2, r.y + r.height / 2);
  }

  private select(sel: { id: string; kind: VisibleItem['kind'] | 'group' } | undefined): void {
    this.selected = sel;
    this.markSelection();
    clear(this.detail);
    if (!sel) return;
    this.detail.appendChild(
      detailFor(this.index, sel.id, sel.kind, {
        openSource: (t) => this.host.openSource?.(t),
        expand: (scope) => void this.toggle(scope, true),
        select: (id) => {
          this.select({ id, kind: 'op' });
          this.centreOn(id);
        },
      }),
    );
  }

  private markSelection(): void {
    const matchSet = new Set(this.matches);
    const matchScopes = new Set<string>();
    for (const id of this.matches) {
      for (
        let p: string | null = this.index.nodes.get(id)?.scope ?? null;
        p;
        p = this.index.scopes.get(p)?.parent ?? null
      ) {
        matchScopes.add(p);
      }
    }
    for (const el of Array.from(this.scene.querySelectorAll<SVGGElement>('g.node'))) {
      const id = el.dataset.id ?? '';
      el.classList.toggle('selected', id === this.selected?.id);
      el.classList.toggle(
        'match',
        matchSet.has(id) || (el.classList.contains('scope') && matchScopes.has(id)),
      );
    }
  }
}

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 50);
}

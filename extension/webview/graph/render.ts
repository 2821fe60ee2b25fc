// Draws a laid-out graph as SVG: Cell boxes, edges, and nodes. Every string is set as text.
import { s } from '../common/dom';
import type { VisibleGraph, VisibleItem } from './fold';
import { GROUP_HEADER, itemLabel, scopeTitle } from './labels';
import type { Layout, Rect } from './layout/geometry';
import type { GraphIndex } from './model';

export interface RenderHandlers {
  select(id: string, kind: VisibleItem['kind'] | 'group'): void;
  expand(scope: string): void;
  collapse(scope: string): void;
}

/** Stable per op type: the same type gets the same hue in every view. */
export function hue(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h % 360;
}

/**
 * The drawing of one view, kept between foldings: an item, Cell box or edge that is still
 * there is moved (its transform or path changes), not rebuilt, so opening a Cell only creates
 * what appears and the browser only lays out again what changed.
 */
export class GraphScene {
  readonly root = s('g', { class: 'graph' });
  private readonly groupLayer = s('g', { class: 'groups' });
  private readonly edgeLayer = s('g', { class: 'edges' });
  private readonly nodeLayer = s('g', { class: 'nodes' });
  private readonly groups = new Map<string, { el: SVGGElement; at: string; size: string }>();
  private readonly nodes = new Map<string, { el: SVGGElement; at: string; key: string }>();
  private readonly edges = new Map<string, { el: SVGPathElement; d: string; cls: string }>();

  constructor(
    private readonly index: GraphIndex,
    private readonly handlers: RenderHandlers,
  ) {
    this.root.append(this.groupLayer, this.edgeLayer, this.nodeLayer);
  }

  update(graph: VisibleGraph, layout: Layout): void {
    const depth = (id: string): number => id.split('/').length;
    const groups = new Set<string>();
    // Outer boxes first: a Cell appears only inside an open one, so new boxes go on top.
    for (const g of [...graph.groups].sort((a, b) => depth(a.id) - depth(b.id))) {
      const r = layout.groups.get(g.id);
      if (!r) continue;
      groups.add(g.id);
      const at = translate(r);
      const size = `${r.width}x${r.height}`;
      const old = this.groups.get(g.id);
      if (old && old.size === size) {
        if (old.at !== at) old.el.setAttribute('transform', (old.at = at));
        continue;
      }
      const el = groupBox(this.index, g.id, r, this.handlers);
      if (old) old.el.replaceWith(el);
      else this.groupLayer.appendChild(el);
      this.groups.set(g.id, { el, at, size });
    }
    drop(this.groups, groups);

    const edges = new Set<string>();
    for (const e of layout.edges) {
      if (e.points.length < 2) continue;
      const key = `${e.from}\u0000${e.to}`;
      edges.add(key);
      const d = e.points
        .map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`)
        .join('');
      const cls = e.count > 1 ? 'edge multi' : 'edge';
      const old = this.edges.get(key);
      if (old) {
        if (old.d !== d) old.el.setAttribute('d', (old.d = d));
        if (old.cls !== cls) old.el.setAttribute('class', (old.cls = cls));
        continue;
      }
      const el = s('path', {
        d,
        class: cls,
        'marker-end': 'url(#arrow)',
        'data-from': e.from,
        'data-to': e.to,
      });
      this.edgeLayer.appendChild(el);
      this.edges.set(key, { el, d, cls });
    }
    drop(this.edges, edges);

    const nodes = new Set<string>();
    for (const item of graph.items) {
      const r = layout.items.get(item.id);
      if (!r) continue;
      nodes.add(item.id);
      const at = translate(r);
      const key = `${item.kind}:${r.width}x${r.height}`;
      const old = this.nodes.get(item.id);
      if (old && old.key === key) {
        if (old.at !== at) old.el.setAttribute('transform', (old.at = at));
        continue;
      }
      const el = nodeBox(this.index, item, r, this.handlers);
      if (old) old.el.replaceWith(el);
      else this.nodeLayer.appendChild(el);
      this.nodes.set(item.id, { el, at, key });
    }
    drop(this.nodes, nodes);
  }
}

function translate(r: Rect): string {
  return `translate(${r.x},${r.y})`;
}

function drop(elements: Map<string, { el: Element }>, keep: Set<string>): void {
  for (const [id, { el }] of elements) {
    if (keep.has(id)) continue;
    el.remove();
    elements.delete(id);
  }
}

function groupBox(index: GraphIndex, id: string, r: Rect, handlers: RenderHandlers): SVGGElement {
  const label = scopeTitle(index, id);
  const g = s(
    'g',
    { class: 'group', 'data-id': id, transform: translate(r) },
    s('rect', { class: 'group-box', width: r.width, height: r.height, rx: 6 }),
    s('rect', { class: 'group-header', width: r.width, height: GROUP_HEADER, rx: 6 }),
    s('text', { class: 'group-title', x: 22, y: 16 }, label.title),
    s('text', { class: 'group-toggle', x: 8, y: 16 }, '−'),
  );
  const header = g.querySelectorAll('.group-header, .group-title, .group-toggle');
  for (const el of Array.from(header)) {
    el.addEventListener('click', (ev: Event) => {
      ev.stopPropagation();
      handlers.collapse(id);
    });
  }
  g.appendChild(s('title', {}, `${id}\nclick the header to fold`));
  return g;
}

function nodeBox(
  index: GraphIndex,
  item: VisibleItem,
  r: Rect,
  handlers: RenderHandlers,
): SVGGElement {
  const label = itemLabel(index, item);
  const pattern = item.kind === 'op' ? index.patternKind.get(item.id) : undefined;
  const classes = ['node', item.kind, pattern ? 'fused' : ''].filter(Boolean).join(' ');
  const g = s('g', {
    class: classes,
    'data-id': item.id,
    transform: translate(r),
  });
  const box = s('rect', { class: 'node-box', width: r.width, height: r.height, rx: 4 });
  if (item.kind === 'op') {
    const op = index.nodes.get(item.id)?.opType ?? '';
    g.appendChild(s('rect', { class: 'node-stripe', width: 4, height: r.height, rx: 2 }));
    g.style.setProperty('--op-hue', String(hue(op)));
  }
  g.prepend(box);
  g.append(
    s('text', { class: 'node-title', x: r.width / 2, y: 17 }, label.title),
    s('text', { class: 'node-subtitle', x: r.width / 2, y: 32 }, label.subtitle),
  );
  if (item.kind === 'scope')
    g.append(s('text', { class: 'node-expand', x: r.width - 12, y: 15 }, '+'));
  if (pattern) g.append(s('title', {}, `fusion pattern: ${pattern}`));
  g.addEventListener('click', (ev) => {
    ev.stopPropagation();
    handlers.select(item.id, item.kind);
  });
  if (item.kind === 'scope') {
    g.addEventListener('dblclick', (ev) => {
      ev.stopPropagation();
      handlers.expand(item.id);
    });
  }
  return g;
}

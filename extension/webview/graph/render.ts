// Draws a laid-out graph as SVG: scope boxes, edges, and nodes. Every string is set as text.
import { s } from '../common/dom';
import type { VisibleGraph, VisibleItem } from './fold';
import { GROUP_HEADER, itemLabel, scopeTitle } from './labels';
import type { Layout, Rect } from './layout';
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

export function renderGraph(
  index: GraphIndex,
  graph: VisibleGraph,
  layout: Layout,
  handlers: RenderHandlers,
): SVGGElement {
  const root = s('g', { class: 'graph' });
  const groups = s('g', { class: 'groups' });
  const edges = s('g', { class: 'edges' });
  const nodes = s('g', { class: 'nodes' });
  root.append(groups, edges, nodes);
  const depth = (id: string): number => id.split('/').length;
  for (const g of [...graph.groups].sort((a, b) => depth(a.id) - depth(b.id))) {
    const r = layout.groups.get(g.id);
    if (r) groups.appendChild(groupBox(index, g.id, r, handlers));
  }
  for (const e of layout.edges) {
    if (e.points.length < 2) continue;
    const d = e.points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`);
    edges.appendChild(
      s('path', {
        d: d.join(''),
        class: e.count > 1 ? 'edge multi' : 'edge',
        'marker-end': 'url(#arrow)',
        'data-from': e.from,
        'data-to': e.to,
      }),
    );
  }
  for (const item of graph.items) {
    const r = layout.items.get(item.id);
    if (r) nodes.appendChild(nodeBox(index, item, r, handlers));
  }
  return root;
}

function groupBox(index: GraphIndex, id: string, r: Rect, handlers: RenderHandlers): SVGGElement {
  const label = scopeTitle(index, id);
  const g = s(
    'g',
    { class: 'group', 'data-id': id, transform: `translate(${r.x},${r.y})` },
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
    transform: `translate(${r.x},${r.y})`,
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

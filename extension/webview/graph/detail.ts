// The detail pane: what an op, an input or a Cell is, with links to the source.
import type {
  NodeInput,
  SourceLocation,
  ValueDescription,
} from '../../src/contracts/graphDocument';
import type { SourceTarget } from '../../src/contracts/messages';
import { h } from '../common/dom';
import { formatCount, formatShape } from '../common/format';
import type { GraphIndex } from './model';

export interface DetailHandlers {
  openSource(target: SourceTarget): void;
  expand(scope: string): void;
  select(id: string): void;
}

export function detailFor(
  index: GraphIndex,
  id: string,
  kind: 'op' | 'input' | 'scope' | 'group',
  handlers: DetailHandlers,
): HTMLElement {
  if (kind === 'input') return inputDetail(index, id);
  if (kind === 'scope' || kind === 'group') return scopeDetail(index, id, kind, handlers);
  return opDetail(index, id, handlers);
}

function section(title: string, ...rows: (Node | null)[]): HTMLElement {
  return h('section', {}, h('h3', {}, title), ...rows);
}

function kv(key: string, value: string): HTMLElement {
  return h(
    'div',
    { class: 'kv' },
    h('span', { class: 'k' }, key),
    h('span', { class: 'v' }, value),
  );
}

function valueText(v: ValueDescription | NodeInput): string {
  if (v.type === 'tensor' || v.shape) return `${v.dtype ?? '?'} ${formatShape(v.shape ?? null)}`;
  return v.type ?? 'value';
}

function opDetail(index: GraphIndex, id: string, handlers: DetailHandlers): HTMLElement {
  const n = index.nodes.get(id);
  if (!n) return h('div', { class: 'detail' }, `unknown node ${id}`);
  const pattern = index.patternKind.get(id);
  const inputs = n.inputs
    .filter((i) => i.kind !== 'monad')
    .map((i, k) => {
      const ref = shownSource(index, i.ref ?? '');
      const source = index.nodes.get(ref);
      const param = index.inputs.get(ref) ?? index.doc.parameters.find((p) => p.id === ref);
      const label = source ? `${source.opType} (${source.name})` : (param?.name ?? i.text ?? ref);
      const row = kv(`#${k} ${label}`, valueText(i));
      if (source && index.shownSet.has(ref)) {
        row.classList.add('link');
        row.addEventListener('click', () => handlers.select(ref));
      }
      return row;
    });
  const weights = (index.weights.get(id) ?? []).map((w) =>
    kv(w.name, `${w.dtype ?? '?'} ${formatShape(w.shape)} · ${formatCount(w.size)}`),
  );
  const attrs = Object.entries(n.attrs)
    .filter(([k]) => k !== 'input_names' && k !== 'output_names')
    .map(([k, v]) => kv(k, JSON.stringify(v)));
  const locations = n.source.length ? n.source : [n.userSource, n.frameworkSource];
  const sources = sourceRows(locations, n.userSource, handlers);
  return h(
    'div',
    { class: 'detail' },
    h('h2', {}, n.opType),
    h('div', { class: 'fullname' }, n.fullName),
    pattern ? h('div', { class: 'badge fused' }, `fusion: ${pattern}`) : null,
    section('Outputs', ...n.outputs.map((o, k) => kv(`#${k}`, valueText(o)))),
    section('Inputs', ...inputs),
    weights.length ? section('Parameters', ...weights) : null,
    attrs.length ? section('Attributes', ...attrs) : null,
    sources.length ? section('Source', ...sources) : null,
  );
}

/** Follows bookkeeping ops (TupleGetItem, Load, Depend…) back to a shown op or a parameter. */
function shownSource(index: GraphIndex, ref: string): string {
  let id = ref;
  for (let hops = 0; hops < 8; hops++) {
    if (index.shownSet.has(id)) return id;
    const node = index.nodes.get(id);
    const next = node?.inputs.find((i) => i.kind === 'node' || i.kind === 'param')?.ref;
    if (!node || !next) return id;
    id = next;
  }
  return id;
}

function sourceRows(
  locations: (SourceLocation | null)[],
  user: SourceLocation | null,
  handlers: DetailHandlers,
): HTMLElement[] {
  const seen = new Set<string>();
  const ordered = [user, ...locations].filter((l): l is SourceLocation => l !== null);
  const rows: HTMLElement[] = [];
  for (const l of ordered) {
    const key = `${l.file}:${l.line}:${l.column ?? 0}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const file = l.file.slice(l.file.lastIndexOf('/') + 1);
    const row = h(
      'a',
      { class: l.framework ? 'source framework' : 'source', href: '#', title: l.file },
      h('span', { class: 'loc' }, `${file}:${l.line}`),
      h('code', {}, l.code),
    );
    row.addEventListener('click', (e) => {
      e.preventDefault();
      handlers.openSource({ file: l.file, line: l.line, column: l.column });
    });
    rows.push(row);
  }
  return rows;
}

function inputDetail(index: GraphIndex, id: string): HTMLElement {
  const p = index.inputs.get(id);
  return h(
    'div',
    { class: 'detail' },
    h('h2', {}, `input ${p?.name ?? id}`),
    kv('dtype', p?.dtype ?? '?'),
    kv('shape', formatShape(p?.shape ?? null)),
    kv('elements', formatCount(p?.size ?? 0)),
  );
}

function scopeDetail(
  index: GraphIndex,
  path: string,
  kind: 'scope' | 'group',
  handlers: DetailHandlers,
): HTMLElement {
  const s = index.scopes.get(path);
  const types = new Map<string, number>();
  for (const id of index.shown) {
    const n = index.nodes.get(id);
    if (n && (n.scope === path || n.scope.startsWith(`${path}/`))) {
      types.set(n.opType, (types.get(n.opType) ?? 0) + 1);
    }
  }
  const expand = h('button', {}, 'Expand');
  expand.addEventListener('click', () => handlers.expand(path));
  return h(
    'div',
    { class: 'detail' },
    h('h2', {}, s?.cellType ? `${s.name} · ${s.cellType}` : (s?.name ?? path)),
    h('div', { class: 'fullname' }, path),
    kind === 'scope' ? expand : null,
    kv('ops', String(s?.shownOps ?? 0)),
    kv('parameters', formatCount(s?.paramCount ?? 0)),
    section(
      'Op types',
      ...[...types.entries()].sort((a, b) => b[1] - a[1]).map(([t, c]) => kv(t, String(c))),
    ),
  );
}

// The side panel: actions for the Cell under the cursor, the latest profile at a glance, and
// the workspace's recent runs.
import type { FromSidebar, RunItem, ToSidebar } from '../../src/contracts/sidebar';
import '../styles/sidebar.css';
import { clear, h } from '../common/dom';
import { cellPath, formatMs, formatPercent } from '../common/format';
import { bootWebview } from '../common/boot';
import { trainingSection } from './training';

function button(label: string, message: FromSidebar, disabled = false): HTMLButtonElement {
  const b = h('button', { disabled }, label);
  b.addEventListener('click', () => api.postMessage(message));
  return b;
}

function cellSection(m: ToSidebar): HTMLElement {
  if (!m.cell) {
    return h(
      'section',
      {},
      h('h3', {}, 'Cell'),
      h('p', { class: 'hint' }, 'Put the cursor in an nn.Cell subclass.'),
    );
  }
  const off = !m.trusted;
  return h(
    'section',
    {},
    h('h3', {}, `Cell ${m.cell.name}`),
    h(
      'div',
      { class: 'actions' },
      button('Show graph', { type: 'cellAction', command: 'mindscope.showGraph' }, off),
      button('Profile', { type: 'cellAction', command: 'mindscope.profile' }, off),
      button('Debug in PyNative', { type: 'cellAction', command: 'mindscope.debugPyNative' }, off),
    ),
    off ? h('p', { class: 'hint' }, 'Trust this workspace to run your code.') : null,
  );
}

function profileSection(m: ToSidebar): HTMLElement | null {
  const p = m.profile;
  if (!p) return null;
  const bar = (label: string, share: number, title: string): HTMLElement => {
    const fill = h('span', { class: 'fill' });
    fill.style.width = `${Math.round(share * 100)}%`;
    return h(
      'div',
      { class: 'bar', title },
      h('span', { class: 'label' }, label),
      h('span', { class: 'track' }, fill),
      h('span', { class: 'value' }, formatPercent(share)),
    );
  };
  return h(
    'section',
    { class: 'profile' },
    h('h3', {}, 'Latest profile'),
    h('div', { class: 'target' }, p.target),
    h(
      'div',
      { class: 'big' },
      `${formatMs(p.meanStepMs)} / step`,
      h('span', { class: 'hint' }, ` · ops ${formatMs(p.opMsPerStep)} · ${p.mode}`),
    ),
    ...p.topTypes.map((t) => bar(t.type, t.share, formatMs(t.totalMs))),
    h('h4', {}, 'Cells'),
    ...p.topCells.map((c) => bar(cellPath(c.scope), c.share, c.scope)),
  );
}

function runRow(r: RunItem): HTMLElement {
  const when = new Date(r.at).toLocaleTimeString();
  const row = h(
    'li',
    { class: `run ${r.kind}`, title: r.file },
    h('span', { class: 'kind' }, r.kind),
    h('span', { class: 'name' }, r.target),
    h('span', { class: 'when' }, when),
  );
  row.addEventListener('click', () =>
    api.postMessage({ type: 'openRun', file: r.file, kind: r.kind }),
  );
  return row;
}

// The handlers below run on messages, after `api` is bound.
const { api, root } = bootWebview<FromSidebar>((m: ToSidebar, { root }) => {
  clear(root);
  root.append(
    cellSection(m),
    profileSection(m) ?? h('span', {}),
    trainingSection(m.training, (message) => api.postMessage(message)) ?? h('span', {}),
    h(
      'section',
      {},
      h('h3', {}, 'Recent runs'),
      m.runs.length
        ? h('ul', { class: 'runs' }, ...m.runs.map(runRow))
        : h('p', { class: 'hint' }, 'Graphs and profiles you make appear here.'),
    ),
  );
});
root.classList.add('mindscope-sidebar');

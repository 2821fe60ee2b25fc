// What each visible item says, and so how big it is drawn. Pure.
import { formatCount, formatShape, scopeLabel } from '../common/format';
import { isTransparent, type VisibleItem } from './fold';
import type { GraphIndex } from './model';

export interface ItemLabel {
  title: string;
  subtitle: string;
}

export const CHAR_WIDTH = 7;
export const NODE_HEIGHT = 40;
export const GROUP_HEADER = 24;

export function itemLabel(index: GraphIndex, item: VisibleItem): ItemLabel {
  switch (item.kind) {
    case 'input': {
      const p = index.inputs.get(item.id);
      return { title: p?.name ?? item.id, subtitle: `input ${formatShape(p?.shape ?? null)}` };
    }
    case 'op': {
      const n = index.nodes.get(item.id);
      const out = n?.outputs[0];
      const shape = out ? formatShape(out.shape) : '';
      // An op alone in its Cell stands for the Cell: say which.
      const cell = n && index.scopes.get(n.scope);
      const own = cell && isTransparent(index, cell.path) ? `${cell.name} · ` : '';
      return { title: n?.opType ?? item.id, subtitle: `${own}${shape}` };
    }
    case 'scope':
      return scopeTitle(index, item.id);
  }
}

export function scopeTitle(index: GraphIndex, path: string): ItemLabel {
  const s = index.scopes.get(path);
  const name = s?.name ?? scopeLabel(path);
  const title = s?.cellType ? `${name} · ${s.cellType}` : name;
  const ops = s?.shownOps ?? 0;
  const params = s?.paramCount ? ` · ${formatCount(s.paramCount)} params` : '';
  return { title, subtitle: `${ops} op${ops === 1 ? '' : 's'}${params}` };
}

export function labelWidth(label: ItemLabel, folded = false): number {
  const chars = Math.max(label.title.length * 1.1, label.subtitle.length);
  return Math.max(80, Math.min(340, Math.ceil(chars * CHAR_WIDTH) + (folded ? 44 : 24)));
}

// The op table's sorting and grouping. Pure, unit-tested.
import type { OpRow } from '../../src/contracts/profileDocument';

export type SortKey = 'name' | 'type' | 'scope' | 'calls' | 'totalMs' | 'avgMs' | 'share' | 'rank';
export type SortDir = 'asc' | 'desc';
export type GroupBy = 'none' | 'type' | 'cell';

export interface Sort {
  key: SortKey;
  dir: SortDir;
}

export interface OpGroup {
  key: string;
  rows: OpRow[];
  calls: number;
  totalMs: number;
  avgMs: number;
  share: number;
}

const TEXT_KEYS = new Set<SortKey>(['name', 'type', 'scope']);

/** Numbers descend first, names ascend first: the usual first click. */
export function defaultDir(key: SortKey): SortDir {
  return TEXT_KEYS.has(key) ? 'asc' : 'desc';
}

/** A header click: the same key flips the direction, a new key starts at its default. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: defaultDir(key) };
}

function compare(a: OpRow | OpGroup, b: OpRow | OpGroup, key: SortKey): number {
  const va = key in a ? (a as unknown as Record<string, unknown>)[key] : (a as OpGroup).key;
  const vb = key in b ? (b as unknown as Record<string, unknown>)[key] : (b as OpGroup).key;
  if (typeof va === 'number' && typeof vb === 'number') return va - vb;
  return String(va).localeCompare(String(vb));
}

/** A stable sort: equal rows keep the document's order (by total time). */
export function sortRows<T extends OpRow | OpGroup>(rows: readonly T[], sort: Sort): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => sign * compare(a.row, b.row, sort.key) || a.i - b.i)
    .map((x) => x.row);
}

export function groupKey(row: OpRow, by: GroupBy): string {
  if (by === 'type') return row.type;
  if (by === 'cell') return row.scope || '(no Cell)';
  return '';
}

/** Groups rows (each group sorted), the groups sorted by the same key over their totals. */
export function groupRows(rows: readonly OpRow[], by: GroupBy, sort: Sort): OpGroup[] {
  const groups = new Map<string, OpRow[]>();
  for (const row of rows) {
    const key = groupKey(row, by);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const result: OpGroup[] = [...groups.entries()].map(([key, members]) => {
    const calls = members.reduce((s, r) => s + r.calls, 0);
    const totalMs = members.reduce((s, r) => s + r.totalMs, 0);
    return {
      key,
      rows: sortRows(members, sort),
      calls,
      totalMs,
      avgMs: calls ? totalMs / calls : 0,
      share: members.reduce((s, r) => s + r.share, 0),
    };
  });
  const groupSort: Sort = TEXT_KEYS.has(sort.key) ? { key: 'name', dir: sort.dir } : sort;
  return groupSort.key === 'name'
    ? [...result].sort((a, b) => (sort.dir === 'asc' ? 1 : -1) * a.key.localeCompare(b.key))
    : sortRows(result, groupSort);
}

export function filterRows(rows: readonly OpRow[], query: string): OpRow[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...rows];
  return rows.filter((r) => `${r.fullName} ${r.type}`.toLowerCase().includes(q));
}

/** A merged distributed profile: the rows of one rank (`undefined`: every rank). */
export function filterByRank(rows: readonly OpRow[], rank: number | undefined): OpRow[] {
  return rank === undefined ? [...rows] : rows.filter((r) => r.rank === rank);
}

/** The ranks the rows come from, ascending (empty for a single-process profile). */
export function rowRanks(rows: readonly OpRow[]): number[] {
  const ranks = new Set<number>();
  for (const r of rows) if (typeof r.rank === 'number') ranks.add(r.rank);
  return [...ranks].sort((a, b) => a - b);
}

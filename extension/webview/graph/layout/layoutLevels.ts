// Lays out a visible graph level by level (levels.ts): each open Cell's content on its own,
// deepest first, then the level above with that Cell as one box of the resulting size. Each
// level comes, cheapest first, from the cache (same ELK input: unchanged, or a Cell with the
// same content as one laid out before), from stretching the level's previous layout (only a
// few children changed size: stretch.ts), from stacking a plain chain (chain.ts), from rows
// (rankLayout.ts: a level too big for ELK), or from ELK. Opening one Cell thus runs ELK at most on that Cell's content, never on its siblings or
// on the levels around it.
import { chainLayout, parallelLayout } from './chain';
import { composeLayout } from './compose';
import type { VisibleGraph } from '../fold';
import type { Layout, LevelCounts } from './geometry';
import { LayoutCache } from './layoutCache';
import { levelInput, readLevel, type ElkLevelNode, type LevelResult } from './levelInput';
import { planLevels, type Level, type LevelPlan } from './levels';
import { overElkBudget, rankLayout } from './rankLayout';
import { stretchLevel, type LevelShape } from './stretch';

export type RunElk = (graph: ElkLevelNode) => Promise<ElkLevelNode>;
export type ItemSize = (id: string) => { width: number; height: number };

export class LevelLayouter {
  /** Each level's last layout on screen: what a stretch starts from. */
  private readonly shown = new Map<string | null, { shape: LevelShape; result: LevelResult }>();
  private readonly pending = new Map<string, Promise<LevelResult>>();

  constructor(
    private readonly run: RunElk,
    readonly cache = new LayoutCache(),
  ) {}

  async layout(graph: VisibleGraph, size: ItemSize): Promise<Layout & { levels: LevelCounts }> {
    const start = performance.now();
    const plan = planLevels(graph);
    const { results, counts, shapes } = await this.levels(plan, size, plan.levels, true);
    for (const [id, shape] of shapes) {
      const result = results.get(id);
      if (result) this.shown.set(id, { shape, result });
    }
    return {
      ...composeLayout(graph, plan, results),
      ms: performance.now() - start,
      levels: counts,
    };
  }

  /**
   * A stand-in to draw at once while `layout` waits for ELK: every level not known yet is laid
   * out in rows (rankLayout.ts, linear), nothing is kept. The view draws it, then the real one.
   */
  async provisional(graph: VisibleGraph, size: ItemSize): Promise<Layout> {
    const start = performance.now();
    const plan = planLevels(graph);
    const { results } = await this.levels(plan, size, plan.levels, false, true);
    return { ...composeLayout(graph, plan, results), ms: performance.now() - start };
  }

  /**
   * Lays out, ahead of time, the level of the open Cell `id` in `graph` (a folding the user
   * may ask for next) and the levels inside it, into the cache only.
   */
  async prefetch(graph: VisibleGraph, size: ItemSize, id: string): Promise<LevelCounts> {
    const plan = planLevels(graph);
    const within = (l: Level): boolean =>
      l.id !== null && (l.id === id || l.id.startsWith(`${id}/`));
    return (await this.levels(plan, size, plan.levels.filter(within), false)).counts;
  }

  private async levels(
    plan: LevelPlan,
    size: ItemSize,
    todo: Level[],
    stretch: boolean,
    quick = false,
  ): Promise<{
    results: Map<string | null, LevelResult>;
    shapes: Map<string | null, LevelShape>;
    counts: LevelCounts;
  }> {
    const results = new Map<string | null, LevelResult>();
    const shapes = new Map<string | null, LevelShape>();
    const counts = { laidOut: 0, chained: 0, stretched: 0, reused: 0, ranked: 0 };
    const child = (id: string): { level: Level; result: LevelResult } => {
      const level = plan.byId.get(id);
      const result = results.get(id);
      if (!level || !result) throw new Error(`level ${id} is not laid out yet`);
      return { level, result };
    };
    const one = async (level: Level): Promise<void> => {
      const { graph: input, key } = levelInput(level, size, child);
      const shape = shapeOf(level, size, child);
      shapes.set(level.id, shape);
      let result = this.cache.get(key);
      if (result) {
        counts.reused++;
      } else {
        const last = stretch ? this.shown.get(level.id) : undefined;
        const stretched = last && stretchLevel(last.shape, last.result, shape);
        const chained = stretched ? undefined : (chainLayout(shape) ?? parallelLayout(shape));
        if (stretched) {
          counts.stretched++;
          result = stretched;
        } else if (chained) {
          counts.chained++;
          result = chained;
        } else if (overElkBudget(level)) {
          counts.ranked++;
          result = rankLayout(shape);
        } else if (quick) {
          // Not cached: the real layout of this level comes from ELK.
          counts.ranked++;
          results.set(level.id, rankLayout(shape));
          return;
        } else {
          // Equal Cells asked for together (or by a prefetch still running) are laid out once.
          let job = this.pending.get(key);
          if (job) {
            counts.reused++;
          } else {
            counts.laidOut++;
            job = this.run(input).then((out) => readLevel(level, out));
            this.pending.set(key, job);
            void job.finally(() => this.pending.delete(key)).catch(() => undefined);
          }
          result = await job;
        }
        this.cache.set(key, result);
      }
      results.set(level.id, result);
    };
    // Levels of one depth are independent: start them together.
    for (let i = 0; i < todo.length;) {
      const depth = todo[i]?.depth;
      const batch: Level[] = [];
      for (; i < todo.length && todo[i]?.depth === depth; i++) {
        const l = todo[i];
        if (l) batch.push(l);
      }
      await Promise.all(batch.map(one));
    }
    return { results, shapes, counts };
  }
}

function shapeOf(
  level: Level,
  size: ItemSize,
  child: (id: string) => { level: Level; result: LevelResult },
): LevelShape {
  const inner = new Map<string, Level>();
  const sizes = level.children.map((id) => {
    if (!level.groups.has(id)) return size(id);
    const c = child(id);
    inner.set(id, c.level);
    return { width: c.result.width, height: c.result.height };
  });
  const ports = level.children.map((id) => (level.groups.has(id) ? child(id).result.ports : null));
  return { level, sizes, ports, inner };
}

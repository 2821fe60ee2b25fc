// Puts laid-out levels together: each open Cell's content is placed at its box in the level
// above, and each visible edge is drawn as one path through the ports it crosses. Pure,
// unit-tested.
import type { VisibleGraph } from '../fold';
import type { LaidOutEdge, Layout, Rect } from './geometry';
import type { LevelResult } from './levelInput';
import type { LevelPlan } from './levels';

export function composeLayout(
  graph: VisibleGraph,
  plan: LevelPlan,
  results: ReadonlyMap<string | null, LevelResult>,
): Omit<Layout, 'ms'> {
  const items = new Map<string, Rect>();
  const groups = new Map<string, Rect>();
  const origin = new Map<string | null, [number, number]>([[null, [0, 0]]]);
  // Outermost first, so that each level's origin is known before its content is placed.
  for (const level of [...plan.levels].reverse()) {
    const result = results.get(level.id);
    const [ox, oy] = origin.get(level.id) ?? [0, 0];
    if (!result) continue;
    level.children.forEach((id, i) => {
      const r = result.children[i];
      if (!r) return;
      const rect = { x: ox + r.x, y: oy + r.y, width: r.width, height: r.height };
      if (level.groups.has(id)) {
        groups.set(id, rect);
        origin.set(id, [rect.x, rect.y]);
      } else {
        items.set(id, rect);
      }
    });
  }
  const edges: LaidOutEdge[] = graph.edges.map((e, i) => {
    const points: [number, number][] = [];
    for (const { level, edge } of plan.routes[i] ?? []) {
      const [ox, oy] = origin.get(level.id) ?? [0, 0];
      for (const [x, y] of results.get(level.id)?.edges[edge] ?? []) {
        const last = points[points.length - 1];
        // Consecutive pieces meet at a port: keep that point once.
        if (last && Math.abs(last[0] - ox - x) < 0.5 && Math.abs(last[1] - oy - y) < 0.5) continue;
        points.push([ox + x, oy + y]);
      }
    }
    return { from: e.from, to: e.to, count: e.count, points };
  });
  const top = results.get(null);
  return { items, groups, edges, width: top?.width ?? 0, height: top?.height ?? 0 };
}

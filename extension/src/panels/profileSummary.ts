// The side panel's glance at a profile: step time and the biggest op types and Cells. Pure.
import type { ProfileDocument } from '../contracts/profileDocument';
import type { ProfileSummary } from '../contracts/sidebar';

export function summarizeProfile(doc: ProfileDocument, top = 5): ProfileSummary {
  const depth = (s: string): number => (s ? s.split('/').length : 0);
  const rootDepth = Math.min(...doc.byCell.map((c) => depth(c.scope)));
  return {
    target: doc.meta.target,
    meanStepMs: doc.totals.meanStepMs,
    opMsPerStep: doc.totals.opMs / Math.max(1, doc.totals.steps),
    mode: doc.meta.mode,
    topTypes: [...doc.byType]
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, top)
      .map((t) => ({ type: t.type, share: t.share, totalMs: t.totalMs })),
    topCells: doc.byCell
      .filter((c) => depth(c.scope) === rootDepth + 1)
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, top)
      .map((c) => ({ scope: c.scope, share: c.share })),
  };
}

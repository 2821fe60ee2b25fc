// A merged distributed profile's per-rank numbers, shaped for the charts. Pure, unit-tested.
import type { RanksSection } from '../../src/contracts/profileDocument';

export interface StepGroup {
  index: number;
  /** Wall ms of this step on each rank, in rank order. */
  bars: { rank: number; wallMs: number; straggler: boolean }[];
}

/** Per step: each rank's wall time, the straggler flagged (the rank the others wait for). */
export function stepGroups(section: RanksSection): StepGroup[] {
  const stragglers = new Map(section.steps.map((s) => [s.index, s.straggler]));
  const count = Math.min(...section.ranks.map((r) => r.steps.length));
  const groups: StepGroup[] = [];
  for (let index = 0; index < (Number.isFinite(count) ? count : 0); index++) {
    groups.push({
      index,
      bars: section.ranks.map((r) => ({
        rank: r.rank,
        wallMs: r.steps[index]?.wallMs ?? 0,
        straggler: stragglers.get(index) === r.rank,
      })),
    });
  }
  return groups;
}

export interface Breakdown {
  rank: number;
  /** comm, compute, idle: shares of the rank's profiled wall time (0..1). */
  parts: { kind: 'comm' | 'compute' | 'idle'; share: number; ms: number }[];
  /** Straggler of the most steps (none on a tie). */
  straggler: boolean;
}

export function breakdowns(section: RanksSection): Breakdown[] {
  const counts = new Map<number, number>();
  for (const s of section.steps) counts.set(s.straggler, (counts.get(s.straggler) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  // A tie (each rank slowest in as many steps) names no rank.
  const leaders = [...counts.values()].filter((n) => n === most).length;
  return section.ranks.map((r) => ({
    rank: r.rank,
    parts: [
      { kind: 'comm', share: r.totals.commShare, ms: r.totals.commMs },
      { kind: 'compute', share: r.totals.computeShare, ms: r.totals.computeMs },
      { kind: 'idle', share: r.totals.idleShare, ms: r.totals.idleMs },
    ],
    straggler: most > 0 && leaders === 1 && counts.get(r.rank) === most,
  }));
}

/** "2 ranks · shared clock, residual skew 1.88 ms" */
export function clockText(section: RanksSection): string {
  const clock = section.clock;
  const how =
    clock.method === 'shared-clock' ? 'one host, shared clock' : 'clocks aligned on collectives';
  const skew =
    clock.residualSkewUs === null
      ? 'no collective to check the skew'
      : `residual skew ${(clock.residualSkewUs / 1000).toPrecision(3)} ms`;
  return `${section.count} ranks · ${how}, ${skew}`;
}

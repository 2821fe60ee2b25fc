// A profile's timeline as a Chrome trace file (Perfetto, chrome://tracing). Pure, unit-tested.
import type { ProfileDocument, TraceEvent } from '../contracts/profileDocument';

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, string | number>;
}

/** Events keep their µs timestamps from the profile's origin; metadata events come first. */
export function toChromeTrace(doc: ProfileDocument): ChromeTrace {
  const meta = doc.timeline.events.filter((e) => e.ph === 'M');
  const rest = doc.timeline.events
    .filter((e) => e.ph !== 'M')
    .sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0));
  return {
    traceEvents: [...meta, ...rest],
    displayTimeUnit: 'ms',
    otherData: {
      producer: 'MindScope',
      target: doc.meta.target,
      mode: doc.meta.mode,
      mindsporeVersion: doc.meta.mindsporeVersion,
      steps: doc.meta.steps,
      timeOriginUs: doc.meta.timeOriginUs,
      // A merged distributed profile: each rank is its own set of processes (pids).
      ...(doc.ranks ? { ranks: doc.ranks.count } : {}),
    },
  };
}

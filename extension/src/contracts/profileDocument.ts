// The profile document written by `python -m mindscope_runtime profile`
// (schemas/profile-document.schema.json, kind "mindscope.profile", version 1), and by
// `profile-dist`, which adds the optional `ranks` section.

export interface OpRow {
  name: string;
  fullName: string;
  type: string;
  scope: string;
  scopeSource: 'mindspore' | 'hooks' | 'none';
  calls: number;
  totalMs: number;
  avgMs: number;
  share: number;
  /** Merged distributed profile (`ranks` present): the rank that ran this op. */
  rank?: number;
}

export interface TypeRow {
  type: string;
  calls: number;
  callsPerStep?: number;
  totalMs: number;
  avgMs: number;
  share: number;
}

export interface CellRow {
  scope: string;
  selfMs: number;
  totalMs: number;
  calls: number;
  ops: number;
  share: number;
  /** Times the Cell ran over the profiled steps (absent in older documents). */
  callCount?: number;
  /** totalMs / callCount (absent in older documents). */
  perCallMs?: number;
}

export interface StepRow {
  index: number;
  startNs: number;
  wallMs: number;
  opMs: number;
  opCount: number;
}

export interface TraceEvent {
  ph: 'X' | 'M' | 'i' | 'B' | 'E' | 'C';
  name: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, unknown>;
}

export interface ProfileMeta {
  mindsporeVersion: string;
  mode: 'GRAPH_MODE' | 'PYNATIVE_MODE';
  syntaxLevel: string;
  device: string;
  target: string;
  rootCell?: string;
  inputs: Record<string, unknown>[];
  steps: number;
  warmup: number;
  scopeAttribution: 'mindspore' | 'hooks';
  timeOriginUs: number;
  /** GRAPH_MODE: rows whose scope came from the warm-up IR; null when no IR was written. */
  rehomedOps?: number | null;
  createdAt?: string;
  step?: { kind: 'forward' | 'train'; optimizer?: string; lr?: number; loss?: string };
}

export interface ProfileDocument {
  kind: 'mindscope.profile';
  version: 1;
  meta: ProfileMeta;
  ops: OpRow[];
  byType: TypeRow[];
  byCell: CellRow[];
  steps: StepRow[];
  totals: { opMs: number; meanStepMs: number; steps: number; opRows: number };
  timeline: { unit: 'us'; events: TraceEvent[] };
  memory: Record<string, unknown> | null;
  /** Optional: `profile-dist` merged an msrun job's ranks (absent in a single-process profile). */
  ranks?: RanksSection;
}

/** One rank's step: its wall time split into communication, compute and idle. */
export interface RankStep {
  index: number;
  startNs: number;
  wallMs: number;
  commMs: number;
  computeMs: number;
  idleMs: number;
  opMs: number;
  opCount: number;
}

export interface RankSummary {
  rank: number;
  host: string;
  pid?: number | null;
  /** Timeline pid of this rank's CPU ops lane. */
  lanePid: number;
  log?: string | null;
  profilerFiles?: string[];
  steps: RankStep[];
  totals: {
    opMs: number;
    opRows: number;
    meanStepMs: number;
    wallMs: number;
    commMs: number;
    computeMs: number;
    idleMs: number;
    commShare: number;
    computeShare: number;
    idleShare: number;
  };
}

export interface StragglerRow {
  index: number;
  /** The rank with the most compute in this step: the one the others wait for. */
  straggler: number;
  wallMsByRank: number[];
  computeMsByRank: number[];
  wallSpreadMs: number;
  computeSpreadMs: number;
}

/** The `ranks` section (its own `version`, 1), schemas/profile-document.schema.json. */
export interface RanksSection {
  version: 1;
  count: number;
  stepSource: 'marks' | 'span';
  clock: {
    method: 'shared-clock' | 'collective-ends';
    referenceRank: number;
    offsetsUs: Record<string, number>;
    residualSkewUs: number | null;
    matchedCollectives: number;
  };
  commTypes: string[];
  ranks: RankSummary[];
  steps: StragglerRow[];
  unreadable: { rank: number; file: string; message: string }[];
}

/** The ranks section when the document has one this code understands. */
export function ranksOf(doc: ProfileDocument): RanksSection | undefined {
  // The document is untrusted JSON: a newer section version is ignored, not misread.
  const ranks = doc.ranks as { version?: unknown; ranks?: unknown } | undefined;
  return ranks?.version === 1 && Array.isArray(ranks.ranks) ? doc.ranks : undefined;
}

export const PROFILE_MIME = 'application/vnd.mindscope.profile+json';

export function isProfileDocument(value: unknown): value is ProfileDocument {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof ProfileDocument, unknown>>;
  return (
    v.kind === 'mindscope.profile' &&
    v.version === 1 &&
    Array.isArray(v.ops) &&
    Array.isArray(v.steps) &&
    typeof v.timeline === 'object' &&
    v.timeline !== null
  );
}

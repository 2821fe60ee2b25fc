// The profile document written by `python -m mindscope_runtime profile`
// (schemas/profile-document.schema.json, kind "mindscope.profile", version 1).

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

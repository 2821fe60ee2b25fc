// Generated from schemas/profile-document.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

/**
 * N steps run under mindspore.Profiler (or, with the optional ranks section, every rank of an msrun job merged), parsed from its FRAMEWORK/cpu_op_* and cpu_ms_memory_record_* files and ASCEND_PROFILER_OUTPUT/trace_view.json.
 */
export interface ProfileDocument {
  kind: 'mindscope.profile';
  version: 1;
  meta: ProfileMeta;
  ops: OpRow[];
  byType: TypeRow[];
  byCell: CellRow[];
  steps: StepRow[];
  totals: {
    opMs: number;
    meanStepMs: number;
    steps: number;
    opRows: number;
  };
  timeline: {
    unit: 'us';
    events: TraceEvent[];
  };
  /**
   * What MindSpore's Profiler reported with profile_memory=True (on CPU: FRAMEWORK/cpu_ms_memory_record_*.txt); null when it wrote none. Bytes.
   */
  memory: {
    source: string;
    unit: 'bytes';
    peakAllocatedBytes: number;
    peakReservedBytes: number;
    peakActiveBytes: number;
    sampleCount: number;
    /**
     * Peaks inside each profiled step (null: no allocation event in it)
     */
    steps: {
      step: number;
      peakAllocatedBytes: number | null;
      peakActiveBytes: number | null;
    }[];
    /**
     * [tUs on the timeline's clock, allocated, active]; at most 1000 points, each keeping its bucket's peak
     */
    curve: number[][];
  } | null;
  ranks?: RanksSection;
}
export interface ProfileMeta {
  mindsporeVersion: string;
  /**
   * GRAPH_MODE: op rows whose scope was taken from the warm-up compile's IR rather than MindSpore's op name (the name keeps the first caller of a shared function); null when no IR was written
   */
  rehomedOps?: number | null;
  mode: 'GRAPH_MODE' | 'PYNATIVE_MODE';
  syntaxLevel: string;
  device: string;
  target: string;
  rootCell?: string;
  inputs: {
    [k: string]: unknown;
  }[];
  steps: number;
  warmup: number;
  /**
   * mindspore: scopes from MindSpore's op names (graph mode); hooks: from Cell forward-hook intervals (PyNative)
   */
  scopeAttribution: 'mindspore' | 'hooks';
  /**
   * epoch µs of timeline ts 0
   */
  timeOriginUs: number;
  createdAt?: string;
  profilerFiles?: string[];
  /**
   * what one profiled step runs: the forward `cell(*inputs)` or (`profile --train`) a training step
   */
  step?: {
    kind: 'forward' | 'train';
    optimizer?: 'sgd' | 'momentum' | 'adam';
    lr?: number;
    /**
     * `sum` (sum of the outputs) or `file.py:function`
     */
    loss?: string;
  };
}
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
  /**
   * merged distributed profile (ranks section present): the rank that ran this op
   */
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
  /**
   * self plus descendants
   */
  totalMs: number;
  calls: number;
  ops: number;
  share: number;
  /**
   * times the Cell ran over the profiled steps: forward hooks' count in PYNATIVE_MODE; in GRAPH_MODE steps × k: for a leaf Cell k is the greatest common divisor of its own op counts by type (a Cell called k times per step makes its ops k times), 1 for a Cell with sub-Cells or without ops of its own
   */
  callCount?: number;
  /**
   * totalMs / callCount
   */
  perCallMs?: number;
}
export interface StepRow {
  index: number;
  startNs: number;
  wallMs: number;
  opMs: number;
  opCount: number;
}
/**
 * A Chrome trace event (ts/dur in µs from meta.timeOriginUs)
 */
export interface TraceEvent {
  ph: 'X' | 'M' | 'i' | 'B' | 'E' | 'C';
  name: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: {
    [k: string]: unknown;
  };
}
/**
 * Optional, written by `profile-dist`: one msrun job's ranks merged. Then ops holds every rank's rows (each with its rank), byType/byCell are summed over ranks, steps[i] spans step i from the first rank's start to the last rank's end, and each rank's trace has its own process lanes (lanePid). Absent in a single-process profile.
 */
export interface RanksSection {
  version: 1;
  count: number;
  /**
   * marks: each rank's step intervals from profile-dist's bootstrap; span: none recorded (--from a foreign job), one step over all profiled ops
   */
  stepSource: 'marks' | 'span';
  clock: {
    /**
     * shared-clock: every rank on one host, not shifted; collective-ends: each rank shifted by the median difference of its collectives' end times to the reference rank's
     */
    method: 'shared-clock' | 'collective-ends';
    referenceRank: number;
    /**
     * rank → µs added to that rank's times
     */
    offsetsUs: {
      [k: string]: number;
    };
    /**
     * median |difference| of matched collective end times after the shift (an upper bound of the remaining skew); null when no collective matched
     */
    residualSkewUs: number | null;
    matchedCollectives: number;
  };
  /**
   * the op types counted as communication
   */
  commTypes: string[];
  ranks: RankSummary[];
  /**
   * per step index every rank has: the straggler (the rank with the most compute, which the others wait for in their collectives) and the spread between ranks
   */
  steps: StragglerRow[];
  /**
   * ranks whose output could not be read (e.g. Ascend's profiler_info_<rank>.json / ascend_mindspore_profiler_<rank>.db), with the reason
   */
  unreadable: {
    rank: number;
    file: string;
    message: string;
  }[];
}
export interface RankSummary {
  rank: number;
  host: string;
  pid?: number | null;
  /**
   * the timeline pid of this rank's CPU ops lane
   */
  lanePid: number;
  /**
   * the rank's msrun worker log
   */
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
/**
 * one rank's step: wall time split into communication (union of comm-op intervals), compute (other ops, overlap counted once) and idle
 */
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
export interface StragglerRow {
  index: number;
  straggler: number;
  wallMsByRank: number[];
  computeMsByRank: number[];
  wallSpreadMs: number;
  computeSpreadMs: number;
}

// The summary document written by `python -m mindscope_runtime summary DIR`
// (schemas/summary-document.schema.json, kind "mindscope.summary", version 1).
// NaN and Inf values are null.

export interface SummaryFile {
  name: string;
  size: number;
  offset: number;
  records: number;
}

export interface ScalarSeries {
  tag: string;
  steps: number[];
  wallTimes: number[];
  values: (number | null)[];
}

export interface HistogramSample {
  step: number;
  wallTime: number;
  min: number | null;
  max: number | null;
  sum: number | null;
  count: number;
  nanCount: number;
  posInfCount: number;
  negInfCount: number;
  /** [left, width, count] per bucket. */
  buckets: [number, number, number][];
}

export interface ImageSample {
  step: number;
  wallTime: number;
  width: number;
  height: number;
  colorspace: number;
  /** PNG, base64. */
  png: string;
}

export interface TensorStats {
  count: number;
  nanCount: number;
  posInfCount: number;
  negInfCount: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
}

export interface TensorSample {
  step: number;
  wallTime: number;
  dims: number[];
  dtype: string;
  error?: string;
  stats?: TensorStats;
  values?: (number | null)[];
}

export interface Tagged<T> {
  tag: string;
  samples: T[];
}

export interface RecordedGraph {
  step: number;
  wallTime: number;
  name: string;
  nodes: number;
}

export interface SummaryRun {
  name: string;
  path: string;
  version: string | null;
  files: SummaryFile[];
  firstWallTime: number | null;
  lastWallTime: number | null;
  scalars: ScalarSeries[];
  histograms: Tagged<HistogramSample>[];
  images: Tagged<ImageSample>[];
  tensors: Tagged<TensorSample>[];
  graphs: RecordedGraph[];
}

export type SummaryIssueKind =
  'corrupt-length' | 'corrupt-payload' | 'bad-event' | 'truncated-tail' | 'file-shrank';

export interface SummaryIssue {
  file: string;
  offset: number;
  kind: SummaryIssueKind;
  message: string;
}

export interface SummaryDocument {
  kind: 'mindscope.summary';
  version: 1;
  meta: {
    root: string;
    createdAt: string;
    incremental: boolean;
    tags: string[];
    crc32c: 'google-crc32c' | 'python';
    counts: { runs: number; files: number; events: number; scalarPoints: number; issues: number };
  };
  runs: SummaryRun[];
  issues: SummaryIssue[];
}

export const SUMMARY_MIME = 'application/vnd.mindscope.summary+json';

export function isSummaryDocument(value: unknown): value is SummaryDocument {
  const v = value as Partial<SummaryDocument> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.kind === 'mindscope.summary' &&
    v.version === 1 &&
    Array.isArray(v.runs)
  );
}

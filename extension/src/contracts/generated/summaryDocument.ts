// Generated from schemas/summary-document.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

export type NullableNumber = number | null;
export type SummaryIssueKind =
  'corrupt-length' | 'corrupt-payload' | 'bad-event' | 'truncated-tail' | 'file-shrank';

/**
 * What MindSpore's SummaryRecord / SummaryCollector wrote under a folder (`python -m mindscope_runtime summary DIR`): one entry per run (a directory holding events.out.events.summary.* files) with its scalar series, histograms, images, tensor statistics and recorded graphs, plus every corrupt or truncated record found. NaN and Inf values are null. With `--follow`, later documents have `meta.incremental: true` and hold only the values read since the previous one.
 */
export interface SummaryDocument {
  kind: 'mindscope.summary';
  version: 1;
  meta: {
    root: string;
    createdAt: string;
    /**
     * true: only the values read since the previous document of a --follow stream
     */
    incremental: boolean;
    /**
     * the --tag globs; empty keeps every tag
     */
    tags: string[];
    /**
     * the CRC32C implementation that checked the records
     */
    crc32c: 'google-crc32c' | 'python';
    counts: {
      runs: number;
      files: number;
      events: number;
      scalarPoints: number;
      issues: number;
    };
  };
  runs: SummaryRun[];
  issues: SummaryIssue[];
}
export interface SummaryRun {
  /**
   * the run directory relative to the root (the root's name when the root is the run)
   */
  name: string;
  path: string;
  /**
   * the file's version event, e.g. MindSpore.Event:1
   */
  version: string | null;
  files: SummaryFile[];
  firstWallTime: number | null;
  lastWallTime: number | null;
  scalars: ScalarSeries[];
  histograms: (Tagged & {
    samples: HistogramSample[];
  })[];
  images: (Tagged & {
    samples: ImageSample[];
  })[];
  tensors: (Tagged & {
    samples: TensorSample[];
  })[];
  graphs: RecordedGraph[];
}
export interface SummaryFile {
  name: string;
  size: number;
  /**
   * the byte after the last complete record read; a follow read resumes there
   */
  offset: number;
  records: number;
}
export interface ScalarSeries {
  tag: string;
  steps: number[];
  wallTimes: number[];
  values: NullableNumber[];
}
export interface Tagged {
  tag: string;
  samples: unknown[];
}
export interface HistogramSample {
  step: number;
  wallTime: number;
  min: NullableNumber;
  max: NullableNumber;
  sum: NullableNumber;
  count: number;
  nanCount: number;
  posInfCount: number;
  negInfCount: number;
  /**
   * [left, width, count] per bucket
   */
  buckets: [number, number, number][];
}
export interface ImageSample {
  step: number;
  wallTime: number;
  width: number;
  height: number;
  colorspace: number;
  /**
   * the encoded image (PNG), base64; the most recent 100 per tag are kept
   */
  png: string;
}
export interface TensorSample {
  step: number;
  wallTime: number;
  dims: number[];
  dtype: string;
  /**
   * why the values could not be read
   */
  error?: string;
  stats?: TensorStats;
  /**
   * the flattened values (tensors of at most 1024 elements)
   */
  values?: NullableNumber[];
}
export interface TensorStats {
  count: number;
  nanCount: number;
  posInfCount: number;
  negInfCount: number;
  min: NullableNumber;
  max: NullableNumber;
  mean: NullableNumber;
  std: NullableNumber;
}
export interface RecordedGraph {
  step: number;
  wallTime: number;
  name: string;
  nodes: number;
}
export interface SummaryIssue {
  file: string;
  offset: number;
  kind: SummaryIssueKind;
  message: string;
}

// The summary document written by `python -m mindscope_runtime summary DIR`
// (schemas/summary-document.schema.json, kind "mindscope.summary", version 1).
// NaN and Inf values are null.

export type {
  SummaryFile,
  ScalarSeries,
  HistogramSample,
  ImageSample,
  TensorStats,
  TensorSample,
  RecordedGraph,
  SummaryRun,
  SummaryIssueKind,
  SummaryIssue,
  SummaryDocument,
} from './generated/summaryDocument';
import type { SummaryDocument } from './generated/summaryDocument';

/** A run's histograms, images or tensors: samples of one tag (a view of the schema's `tagged`). */
export interface Tagged<T> {
  tag: string;
  samples: T[];
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

// The export report written by `python -m mindscope_runtime export`
// (schemas/export-report.schema.json, kind "mindscope.export", version 1), and the messages
// of the export report panel.
import type { PanelState } from './messages';

export const EXPORT_MIME = 'application/vnd.mindscope.export+json';

export interface TensorSignature {
  name: string;
  /** A string is a symbolic (dynamic) dimension. */
  shape: (number | string)[];
  dtype: string;
}

export interface Latency {
  /** Milliseconds per call, median of `runs`. */
  median: number;
  min: number;
  runs: number;
}

export interface OutputError {
  index: number;
  maxAbsError: number;
  /** Max abs error / max |eager output|. */
  maxRelError: number;
}

export interface DynamicShapeCheck {
  batch: number;
  ok: boolean;
  maxAbsError: number | null;
  error: string | null;
}

export interface Verification {
  ok: boolean;
  /** null: measured, not judged (int8). */
  tolerance: number | null;
  batches: number;
  outputs: OutputError[];
  error: string | null;
  latencyMs: Latency | null;
  dynamicShape: DynamicShapeCheck | null;
}

export interface WorstLayer {
  tensor: string;
  node: string;
  op: string;
  /** SQNR of the int8 activation against the float one, dB; lower loses more. */
  sqnrDb: number | null;
  localSqnrDb: number | null;
}

export interface Quantization {
  mode: 'int8-dynamic' | 'int8-static';
  calibBatches: number;
  source: string;
  sizeRatio: number;
  latencyRatio: number | null;
  worstLayers: WorstLayer[] | null;
  note: string | null;
}

export type ArtefactFormat = 'MINDIR' | 'ONNX' | 'ONNX-int8';

export interface Artefact {
  format: ArtefactFormat;
  file: string;
  bytes: number;
  runtime: 'GraphCell' | 'onnxruntime';
  inputs: TensorSignature[];
  outputs: TensorSignature[];
  opHistogram: { op: string; count: number }[];
  verification: Verification;
  quantization: Quantization | null;
  snippet: string | null;
  exportSeconds: number | null;
}

export interface ExportReport {
  kind: 'mindscope.export';
  version: 1;
  meta: {
    mindsporeVersion: string;
    onnxVersion?: string | null;
    onnxruntimeVersion?: string | null;
    target: string;
    rootCell: string;
    inputs: { shape: number[] | null; dtype: string }[];
    device: string;
    outputDir: string;
    formats: ('MINDIR' | 'ONNX')[];
    quantize: 'int8-dynamic' | 'int8-static' | null;
    verificationBatches: number;
    latencyRuns: number;
    createdAt: string;
    seconds?: number;
  };
  eager: { runtime: string; latencyMs: Latency; outputs: TensorSignature[] };
  artefacts: Artefact[];
}

export function isExportReport(value: unknown): value is ExportReport {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof ExportReport, unknown>>;
  return (
    v.kind === 'mindscope.export' &&
    v.version === 1 &&
    Array.isArray(v.artefacts) &&
    typeof v.meta === 'object' &&
    v.meta !== null &&
    typeof v.eager === 'object' &&
    v.eager !== null
  );
}

/** Host → export view. */
export interface ToExportView {
  type: 'load';
  doc: ExportReport;
  title: string;
  state?: PanelState;
}

/** Export view → host: the artefact is named by its index in `doc.artefacts`. */
export type FromExportView =
  | { type: 'ready' }
  | { type: 'reveal'; artefact: number }
  | { type: 'openGraph'; artefact: number }
  | { type: 'openSnippet'; artefact: number };

/** What to do with an artefact: from the panel (by index) or a notebook output (by file). */
export type ArtefactAction = 'reveal' | 'openGraph' | 'openSnippet';

export function isArtefactAction(value: unknown): value is ArtefactAction {
  return value === 'reveal' || value === 'openGraph' || value === 'openSnippet';
}

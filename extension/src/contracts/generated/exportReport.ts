// Generated from schemas/export-report.schema.json by scripts/gen-contracts.mjs: do not edit.
// Change the schema and run `npm run gen:contracts`.

export type ArtefactFormat = 'MINDIR' | 'ONNX' | 'ONNX-int8';

/**
 * What `python -m mindscope_runtime export` produced: each artefact (MINDIR, ONNX, int8 ONNX) with its real input/output signature, op-type histogram, and its verification against the eager Cell in a real runtime (MindSpore GraphCell, onnxruntime): per-output max absolute and relative error over the verification batches, median latency, a second batch size, and for the int8 model the size and latency ratios and the layers that lose the most.
 */
export interface ExportReport {
  kind: 'mindscope.export';
  version: 1;
  meta: ExportMeta;
  eager: EagerRun;
  artefacts: Artefact[];
}
export interface ExportMeta {
  mindsporeVersion: string;
  onnxVersion?: string | null;
  onnxruntimeVersion?: string | null;
  target: string;
  rootCell: string;
  inputs: {
    shape: number[] | null;
    dtype: string;
  }[];
  device: string;
  /**
   * absolute folder of the artefacts, snippets and this report
   */
  outputDir: string;
  formats: ('MINDIR' | 'ONNX')[];
  quantize: null | 'int8-dynamic' | 'int8-static';
  /**
   * the given inputs plus random batches of the same shapes and dtypes
   */
  verificationBatches: number;
  latencyRuns: number;
  createdAt: string;
  seconds?: number;
}
export interface EagerRun {
  runtime: string;
  latencyMs: Latency;
  outputs: TensorSignature[];
}
export interface Latency {
  /**
   * milliseconds per call, median of `runs`
   */
  median: number;
  min: number;
  runs: number;
}
export interface TensorSignature {
  name: string;
  /**
   * a string is a symbolic (dynamic) dimension
   */
  shape: unknown[];
  dtype: string;
}
export interface Artefact {
  format: ArtefactFormat;
  file: string;
  bytes: number;
  runtime: 'GraphCell' | 'onnxruntime';
  inputs: TensorSignature[];
  outputs: TensorSignature[];
  /**
   * op types of the exported graph (MINDIR: compute ops only), most frequent first
   */
  opHistogram: OpCount[];
  verification: Verification;
  quantization: null | Quantization;
  /**
   * the generated inference script next to the artefact
   */
  snippet: string | null;
  exportSeconds: number | null;
}
export interface OpCount {
  op: string;
  count: number;
}
export interface Verification {
  /**
   * ran on every batch and (with a tolerance) every max abs error is within it
   */
  ok: boolean;
  /**
   * null: measured, not judged (int8)
   */
  tolerance: number | null;
  batches: number;
  outputs: OutputError[];
  error: string | null;
  latencyMs: null | Latency;
  dynamicShape: null | DynamicShapeCheck;
}
export interface OutputError {
  index: number;
  maxAbsError: number;
  /**
   * max abs error / max |eager output|
   */
  maxRelError: number;
}
export interface DynamicShapeCheck {
  /**
   * the second batch size tried (twice the first)
   */
  batch: number;
  ok: boolean;
  maxAbsError: number | null;
  error: string | null;
}
export interface Quantization {
  mode: 'int8-dynamic' | 'int8-static';
  calibBatches: number;
  /**
   * the float ONNX model it was quantized from
   */
  source: string;
  /**
   * int8 bytes / float bytes
   */
  sizeRatio: number;
  /**
   * int8 / float median latency in onnxruntime
   */
  latencyRatio: number | null;
  worstLayers: null | WorstLayer[];
  note: string | null;
}
export interface WorstLayer {
  tensor: string;
  node: string;
  op: string;
  /**
   * SQNR of the int8 model's activation against the float model's (dB; lower loses more)
   */
  sqnrDb: number | null;
  /**
   * SQNR of this tensor's own quantize-dequantize step
   */
  localSqnrDb: number | null;
}

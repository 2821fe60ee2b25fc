// The export report as table rows of text: pure (no DOM), unit-tested.
import type { Artefact, ExportReport } from '../../src/contracts/exportReport';
import { formatMs } from '../common/format';

export interface VerificationRow {
  index: number;
  format: string;
  runtime: string;
  file: string;
  size: string;
  maxAbsError: string;
  maxRelError: string;
  latency: string;
  /** Latency relative to the eager Cell: "0.02× eager". */
  speedup: string;
  dynamic: string;
  status: 'ok' | 'fail' | 'measured';
  detail: string;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

export function formatError(x: number | null | undefined): string {
  if (x === null || x === undefined) return '—';
  return x === 0 ? '0' : x.toExponential(2);
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

function worst(a: Artefact, key: 'maxAbsError' | 'maxRelError'): number | null {
  const values = a.verification.outputs.map((o) => o[key]);
  return values.length ? Math.max(...values) : null;
}

export function verificationRows(doc: ExportReport): VerificationRow[] {
  const eager = doc.eager.latencyMs.median;
  return doc.artefacts.map((a, index) => {
    const v = a.verification;
    const latency = v.latencyMs?.median;
    const dyn = v.dynamicShape;
    const status = !v.ok ? 'fail' : v.tolerance === null ? 'measured' : 'ok';
    const detail =
      v.error ??
      (v.tolerance === null
        ? 'int8: error measured against the eager Cell, not judged'
        : `every output within ${v.tolerance} on ${v.batches} batches`);
    return {
      index,
      format: a.format,
      runtime: a.runtime,
      file: baseName(a.file),
      size: formatBytes(a.bytes),
      maxAbsError: formatError(worst(a, 'maxAbsError')),
      maxRelError: formatError(worst(a, 'maxRelError')),
      latency: latency === undefined ? '—' : formatMs(latency),
      speedup: latency === undefined || !eager ? '—' : `${(latency / eager).toPrecision(2)}× eager`,
      dynamic: dyn ? `batch ${dyn.batch}: ${dyn.ok ? 'yes' : 'no'}` : '—',
      status,
      detail,
    };
  });
}

/** "4 batches · eager 12.3 ms in MindSpore (PyNative) · MindSpore 2.10.0 · onnxruntime 1.31.1" */
export function summaryLine(doc: ExportReport): string {
  const m = doc.meta;
  const parts = [
    `${m.rootCell} (${m.target})`,
    `inputs ${m.inputs.map((i) => `${(i.shape ?? []).join('×')}:${i.dtype}`).join(', ')}`,
    `${m.verificationBatches} batches`,
    `eager ${formatMs(doc.eager.latencyMs.median)} in ${doc.eager.runtime}`,
    `MindSpore ${m.mindsporeVersion}`,
  ];
  if (m.onnxruntimeVersion) parts.push(`onnxruntime ${m.onnxruntimeVersion}`);
  return parts.join(' · ');
}

// The export report written by `python -m mindscope_runtime export`
// (schemas/export-report.schema.json, kind "mindscope.export", version 1), and the messages
// of the export report panel.
import type { PanelState } from './messages';

export const EXPORT_MIME = 'application/vnd.mindscope.export+json';

export type {
  TensorSignature,
  Latency,
  OutputError,
  DynamicShapeCheck,
  Verification,
  WorstLayer,
  Quantization,
  ArtefactFormat,
  Artefact,
  ExportReport,
} from './generated/exportReport';
import type { ExportReport } from './generated/exportReport';

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

// Export options ↔ the runtime's `export` flags. Pure, unit-tested.

export type ExportFormat = 'both' | 'MINDIR' | 'ONNX';
export type ExportQuantize = 'none' | 'int8-dynamic' | 'int8-static';

export interface ExportOptions {
  format: ExportFormat;
  quantize: ExportQuantize;
}

export const FORMAT_VALUES: readonly ExportFormat[] = ['both', 'MINDIR', 'ONNX'];
export const QUANTIZE_VALUES: readonly ExportQuantize[] = ['none', 'int8-dynamic', 'int8-static'];

/** The runtime's `export` flags for these options. */
export function exportFlags(o: ExportOptions): string[] {
  const flags = ['--format', o.format];
  if (o.quantize !== 'none') flags.push('--quantize', o.quantize);
  return flags;
}

export function isExportOptions(value: unknown): value is ExportOptions {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    FORMAT_VALUES.includes(v.format as ExportFormat) &&
    QUANTIZE_VALUES.includes(v.quantize as ExportQuantize)
  );
}

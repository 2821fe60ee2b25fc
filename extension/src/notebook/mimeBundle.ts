// Jupyter output messages → what a VS Code notebook output holds, and the metadata the built-in
// ipynb serializer reads back (metadata.outputType, executionCount, originalError) so a saved
// notebook round-trips. No vscode import: unit-tested directly.

export interface OutputItemSpec {
  mime: string;
  data: Uint8Array;
}

export type OutputType = 'execute_result' | 'display_data' | 'stream' | 'error';

/** The stream MIME types VS Code's built-in renderer and the ipynb serializer agree on. */
export const STREAM_MIME = {
  stdout: 'application/vnd.code.notebook.stdout',
  stderr: 'application/vnd.code.notebook.stderr',
} as const;

const BASE64_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/webp']);
const encoder = new TextEncoder();

/** Every MIME type of a bundle: base64 images as bytes, strings as UTF-8, the rest as JSON. */
export function bundleItems(data: Record<string, unknown>): OutputItemSpec[] {
  return Object.entries(data).map(([mime, value]) => ({ mime, data: encodeValue(mime, value) }));
}

function encodeValue(mime: string, value: unknown): Uint8Array {
  // nbformat allows multi-line strings as a list of lines.
  const text =
    Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join('') : value;
  if (typeof text === 'string') {
    return BASE64_MIMES.has(mime)
      ? Uint8Array.from(Buffer.from(text, 'base64'))
      : encoder.encode(text);
  }
  return encoder.encode(JSON.stringify(text));
}

export function streamItem(name: string, text: string): OutputItemSpec {
  const mime = name === 'stderr' ? STREAM_MIME.stderr : STREAM_MIME.stdout;
  return { mime, data: encoder.encode(text) };
}

export interface ErrorContent {
  ename: string;
  evalue: string;
  traceback: string[];
}

export function errorContent(content: Record<string, unknown>): ErrorContent {
  const traceback = Array.isArray(content.traceback)
    ? content.traceback.filter((t): t is string => typeof t === 'string')
    : [];
  return {
    ename: typeof content.ename === 'string' ? content.ename : 'Error',
    evalue: typeof content.evalue === 'string' ? content.evalue : '',
    traceback,
  };
}

/** The `vscode.NotebookCellOutputItem.error` payload: the traceback keeps its ANSI colours. */
export function errorItemValue(e: ErrorContent): { name: string; message: string; stack: string } {
  return { name: e.ename, message: e.evalue, stack: e.traceback.join('\n') };
}

export function outputMetadata(
  outputType: OutputType,
  content: Record<string, unknown>,
  executionCount?: number,
): Record<string, unknown> {
  const metadata: Record<string, unknown> = { outputType };
  if (outputType === 'execute_result' || outputType === 'display_data') {
    metadata.metadata = content.metadata ?? {};
    if (content.transient !== undefined) metadata.transient = content.transient;
  }
  if (outputType === 'execute_result') metadata.executionCount = executionCount ?? null;
  if (outputType === 'error') {
    metadata.originalError = { output_type: 'error', ...errorContent(content) };
  }
  return metadata;
}

export function displayId(content: Record<string, unknown>): string | undefined {
  const transient = content.transient as { display_id?: unknown } | undefined;
  return typeof transient?.display_id === 'string' ? transient.display_id : undefined;
}

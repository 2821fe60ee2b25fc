// Which file the kernel runs a notebook cell from, and back. ipykernel compiles each cell under
// `<tmpFilePrefix><murmur2(code)><tmpFileSuffix>` (its `debugInfo` reply names the prefix, suffix,
// hash and seed; `dumpCell` writes the file). Breakpoints in a cell must name that file, and
// stack frames in that file must point back at the cell. Pure: no `vscode` import.

/** How the kernel names cell files, from its `debugInfo` reply. */
export interface CellFileScheme {
  prefix: string;
  suffix: string;
  hashMethod: string;
  hashSeed: number;
}

/** A code cell as the mapping sees it: its URI (as a string) and current text. */
export interface CellText {
  uri: string;
  code: string;
}

/** The scheme in a `debugInfo` reply body, or undefined when the body does not name one. */
export function schemeFromDebugInfo(body: unknown): CellFileScheme | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const { tmpFilePrefix, tmpFileSuffix, hashMethod, hashSeed } = b;
  if (
    typeof tmpFilePrefix !== 'string' ||
    typeof tmpFileSuffix !== 'string' ||
    typeof hashMethod !== 'string' ||
    typeof hashSeed !== 'number'
  ) {
    return undefined;
  }
  return { prefix: tmpFilePrefix, suffix: tmpFileSuffix, hashMethod, hashSeed };
}

/** MurmurHash2, 32-bit, over the UTF-8 bytes of `text`: ipykernel's `murmur2_x86`. */
export function murmur2(text: string, seed: number): number {
  const data = new TextEncoder().encode(text);
  const m = 0x5bd1e995;
  const byte = (i: number): number => data[i] ?? 0;
  let h = (seed ^ data.length) >>> 0;
  const end = data.length & ~3;
  for (let i = 0; i < end; i += 4) {
    let k = byte(i) | (byte(i + 1) << 8) | (byte(i + 2) << 16) | (byte(i + 3) << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = data.length & 3;
  if (rest > 0) {
    let k = 0;
    if (rest === 3) k = byte(end + 2) << 16;
    if (rest >= 2) k |= byte(end + 1) << 8;
    k |= byte(end);
    h = Math.imul(h ^ k, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h >>> 0;
}

/** The text the kernel receives for a cell: VS Code may hold CRLF, Jupyter sends LF. */
export function kernelCode(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** The file the kernel compiles `code` from; undefined for a hash this code does not know. */
export function cellFilePath(scheme: CellFileScheme, code: string): string | undefined {
  if (scheme.hashMethod.toLowerCase() !== 'murmur2') return undefined;
  return `${scheme.prefix}${murmur2(kernelCode(code), scheme.hashSeed)}${scheme.suffix}`;
}

/** Cell URI ↔ kernel file for one notebook. Files the kernel reported (`dumpCell`) win over
 * computed ones; a frame in a cell that was never dumped is found by hashing the current cells. */
export class CellFileMap {
  private readonly fileOfCell = new Map<string, string>();
  private readonly cellOfFile = new Map<string, string>();
  private scheme: CellFileScheme | undefined;

  constructor(private readonly cells: () => readonly CellText[]) {}

  setScheme(scheme: CellFileScheme | undefined): void {
    this.scheme = scheme;
  }

  /** Records what `dumpCell` answered for the cell `uri`. */
  remember(uri: string, file: string): void {
    const previous = this.fileOfCell.get(uri);
    if (previous !== undefined && this.cellOfFile.get(previous) === uri) {
      this.cellOfFile.delete(previous);
    }
    this.fileOfCell.set(uri, file);
    this.cellOfFile.set(file, uri);
  }

  fileFor(uri: string): string | undefined {
    return this.fileOfCell.get(uri);
  }

  cellFor(file: string): string | undefined {
    const known = this.cellOfFile.get(file);
    if (known !== undefined) return known;
    if (!this.scheme || !file.startsWith(this.scheme.prefix)) return undefined;
    for (const cell of this.cells()) {
      if (cellFilePath(this.scheme, cell.code) === file) {
        this.cellOfFile.set(file, cell.uri);
        if (!this.fileOfCell.has(cell.uri)) this.fileOfCell.set(cell.uri, file);
        return cell.uri;
      }
    }
    return undefined;
  }
}

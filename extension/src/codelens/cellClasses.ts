// Finds nn.Cell subclasses and a make_inputs function in Python source, textually: the
// fallback while the language server cannot say (cellFinder.ts), and never importing or
// running the user's code. Pure, unit-tested.

export interface CellClass {
  name: string;
  /** 0-based line of the `class` statement. */
  line: number;
  /** 0-based last line of the class body, when known (the server knows it). */
  endLine?: number;
}

const CLASS = /^class\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*:/;
const CELL_BASE = /(^|[\s,.])(Cell|SequentialCell|CellList|CellDict)\s*(,|$)/;
const MAKE_INPUTS = /^def\s+(make_inputs|example_inputs|get_inputs)\s*\(/m;

/**
 * Top-level classes whose bases name a Cell (nn.Cell, mindspore.nn.Cell, Cell), or another
 * class of the same file that is one.
 */
export function findCellClasses(source: string): CellClass[] {
  const found: CellClass[] = [];
  const known = new Set<string>();
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = CLASS.exec(lines[i] ?? '');
    if (!match) continue;
    const name = match[1] ?? '';
    const bases = (match[2] ?? '').trim();
    const local = bases.split(',').some((b) => known.has(b.trim()));
    if (CELL_BASE.test(bases) || local) {
      found.push({ name, line: i });
      known.add(name);
    }
  }
  return found;
}

/** The name of a top-level inputs function, if the file has one. */
export function findInputsFunction(source: string): string | undefined {
  return MAKE_INPUTS.exec(source)?.[1];
}

/** The Cell class whose body holds `line` (the nearest class statement above it that has not
 * ended before it). */
export function cellAt(classes: CellClass[], line: number): CellClass | undefined {
  let best: CellClass | undefined;
  for (const c of classes) {
    if (c.line > line || (c.endLine !== undefined && c.endLine < line)) continue;
    if (!best || c.line > best.line) best = c;
  }
  return best;
}

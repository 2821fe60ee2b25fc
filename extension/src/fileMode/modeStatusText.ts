// What the mode status item says: its text, its Markdown tooltip and the entries of its quick
// pick, from the server's `mindscope/fileMode` answer. Pure (no vscode), unit-tested.
import type { CompiledFunction, FileMode, SourceLocation } from '../contracts/fileMode';

/** Names a location for people: `line 12`, or in a notebook `cell 3, line 1`. */
export type Place = (location: { uri: string; line: number }) => string;

export const LEVEL_SETTING = 'mindscope.graphMode.syntaxLevel';

const MODE_LABEL = { GRAPH_MODE: 'GRAPH', PYNATIVE_MODE: 'PyNative' } as const;

const KIND_LABEL: Record<CompiledFunction['kind'], string> = {
  construct: 'Cell.construct',
  jit: '@jit',
  callee: 'called from compiled code',
};

/** `GRAPH`, `PyNative`, `GRAPH/PyNative` (chosen at run time) or `mode?`. */
export function modeLabel(m: FileMode): string {
  if (m.mode !== 'UNKNOWN') return MODE_LABEL[m.mode];
  return m.modeChoices.length ? m.modeChoices.map((c) => MODE_LABEL[c]).join('/') : 'mode?';
}

/** The status bar text; the level only matters where GRAPH_MODE may compile construct. */
export function statusText(m: FileMode): string {
  const level = m.mode === 'PYNATIVE_MODE' ? '' : ` · ${m.level}`;
  return `$(circuit-board) ${modeLabel(m)}${level}`;
}

/** Inline code that survives backticks in the code itself. */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function at(location: SourceLocation, place: Place): string {
  return `${code(location.text)} at ${place(location)}`;
}

function modeLine(m: FileMode, place: Place): string {
  const where = m.modeAt;
  if (m.modeSource === 'default' || !where) {
    return (
      '**Mode: PYNATIVE_MODE**: nothing here calls `set_context(mode=…)`, and MindSpore 2.x ' +
      'runs in PyNative by default.'
    );
  }
  const again =
    m.modeSetCount > 1
      ? ` The mode is set ${m.modeSetCount} times; the last call wins when the code runs top to bottom.`
      : '';
  if (m.mode !== 'UNKNOWN') return `**Mode: ${m.mode}**, set by ${at(where, place)}.${again}`;
  const which = m.modeChoices.length ? m.modeChoices.join(' or ') : 'set at run time';
  return `**Mode: ${which}**, chosen at run time by ${at(where, place)}.${again}`;
}

function levelLine(m: FileMode, place: Place): string {
  if (m.levelSource === 'file' && m.levelAt) {
    return `**Syntax level: ${m.level}**, from ${at(m.levelAt, place)}.`;
  }
  return (
    `**Syntax level: ${m.level}**, from the \`${LEVEL_SETTING}\` setting ` +
    '(nothing here sets `jit_syntax_level`).'
  );
}

function compiledLine(m: FileMode): string {
  const n = m.compiledFunctions;
  if (n === 0) return '**Compiled: none**: no `Cell.construct` and no `@jit` function here.';
  const count = (kind: CompiledFunction['kind']): number =>
    m.compiled.filter((c) => c.kind === kind).length;
  const parts = [
    `${count('construct')} Cell.construct`,
    `${count('jit')} @jit`,
    `${count('callee')} called from them`,
  ];
  const shown = m.compiled.length < n ? ` (first ${m.compiled.length} listed)` : '';
  const pynative =
    m.mode === 'PYNATIVE_MODE'
      ? ' In PyNative only `@jit` functions compile; `construct` runs eagerly.'
      : '';
  return `**Compiled: ${n} function${n === 1 ? '' : 's'}**${shown}: ${parts.join(', ')}.${pynative}`;
}

/** The tooltip, in Markdown: where the mode and level come from, and what compiles. */
export function statusTooltip(m: FileMode, place: Place, notebook = false): string {
  const lines = [
    `**MindScope**: execution mode of this ${notebook ? 'notebook' : 'file'}`,
    modeLine(m, place),
    levelLine(m, place),
    compiledLine(m),
  ];
  if (!m.parsed) lines.push('_Part of the code does not parse: it was read without those lines._');
  lines.push('Click for the compiled functions, the syntax level setting and the rules.');
  return lines.join('\n\n');
}

export type PickAction =
  { kind: 'reveal'; uri: string; line: number } | { kind: 'settings' } | { kind: 'rules' };

export type PickEntry =
  | { kind: 'separator'; label: string }
  | { kind: 'item'; label: string; description: string; detail?: string; action: PickAction };

function reveal(label: string, location: SourceLocation, place: Place): PickEntry {
  return {
    kind: 'item',
    label,
    description: place(location),
    detail: location.text,
    action: { kind: 'reveal', uri: location.uri, line: location.line },
  };
}

/** The quick pick behind the status item: go to the calls, the compiled functions, or help. */
export function pickEntries(m: FileMode, place: Place): PickEntry[] {
  const entries: PickEntry[] = [];
  if (m.modeAt) entries.push(reveal('$(go-to-file) set_context(mode=…)', m.modeAt, place));
  if (m.levelAt) entries.push(reveal('$(go-to-file) jit_syntax_level', m.levelAt, place));
  if (m.compiled.length) {
    entries.push({ kind: 'separator', label: `Compiled functions (${m.compiledFunctions})` });
    for (const fn of m.compiled) {
      entries.push({
        kind: 'item',
        label: `$(symbol-method) ${fn.name}`,
        description: `${KIND_LABEL[fn.kind]} · ${place(fn)}`,
        action: { kind: 'reveal', uri: fn.uri, line: fn.line },
      });
    }
  }
  entries.push(
    { kind: 'separator', label: 'Help' },
    {
      kind: 'item',
      label: '$(settings-gear) Syntax level setting',
      description: `${LEVEL_SETTING}: used when the file sets no jit_syntax_level`,
      action: { kind: 'settings' },
    },
    {
      kind: 'item',
      label: '$(book) Graph-mode rules',
      description: 'what fails or behaves differently once MindSpore compiles it',
      action: { kind: 'rules' },
    },
  );
  return entries;
}

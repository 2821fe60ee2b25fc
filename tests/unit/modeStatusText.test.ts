import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileMode } from '../../extension/src/contracts/fileMode';
import {
  code,
  modeLabel,
  pickEntries,
  statusText,
  statusTooltip,
  type Place,
} from '../../extension/src/fileMode/modeStatusText';

const FILE = 'file:///w/net.py';
const line: Place = ({ line: l }) => `line ${l + 1}`;

function mode(over: Partial<FileMode> = {}): FileMode {
  return {
    version: 1,
    mode: 'GRAPH_MODE',
    modeSource: 'file',
    modeChoices: ['GRAPH_MODE'],
    modeAt: { uri: FILE, line: 3, text: 'ms.set_context(mode=ms.GRAPH_MODE)' },
    modeSetCount: 1,
    level: 'LAX',
    levelSource: 'setting',
    levelAt: null,
    compiledFunctions: 3,
    compiled: [
      { name: 'Net.construct', kind: 'construct', uri: FILE, line: 7 },
      { name: 'scale', kind: 'callee', uri: FILE, line: 11 },
      { name: 'step', kind: 'jit', uri: FILE, line: 16 },
    ],
    parsed: true,
    ...over,
  };
}

const pynativeDefault = mode({
  mode: 'PYNATIVE_MODE',
  modeSource: 'default',
  modeChoices: ['PYNATIVE_MODE'],
  modeAt: null,
  modeSetCount: 0,
});

test('the status text names the mode and, where GRAPH_MODE may compile, the level', () => {
  assert.equal(statusText(mode()), '$(circuit-board) GRAPH · LAX');
  assert.equal(statusText(mode({ level: 'STRICT' })), '$(circuit-board) GRAPH · STRICT');
  assert.equal(statusText(pynativeDefault), '$(circuit-board) PyNative');
  const choice = mode({ mode: 'UNKNOWN', modeChoices: ['GRAPH_MODE', 'PYNATIVE_MODE'] });
  assert.equal(statusText(choice), '$(circuit-board) GRAPH/PyNative · LAX');
  assert.equal(modeLabel(mode({ mode: 'UNKNOWN', modeChoices: [] })), 'mode?');
});

test('the tooltip says where the mode and the level come from', () => {
  const tip = statusTooltip(mode(), line);
  assert.match(
    tip,
    /\*\*Mode: GRAPH_MODE\*\*, set by `ms\.set_context\(mode=ms\.GRAPH_MODE\)` at line 4\./,
  );
  assert.match(
    tip,
    /\*\*Syntax level: LAX\*\*, from the `mindscope\.graphMode\.syntaxLevel` setting/,
  );
  assert.match(
    tip,
    /\*\*Compiled: 3 functions\*\*: 1 Cell\.construct, 1 @jit, 1 called from them\./,
  );
  assert.doesNotMatch(tip, /does not parse/);
  const strict = statusTooltip(
    mode({
      level: 'STRICT',
      levelSource: 'file',
      levelAt: { uri: FILE, line: 2, text: 'ms.set_context(jit_syntax_level=ms.STRICT)' },
    }),
    line,
  );
  assert.match(
    strict,
    /\*\*Syntax level: STRICT\*\*, from `ms\.set_context\(jit_syntax_level=ms\.STRICT\)` at line 3\./,
  );
});

test('the tooltip explains the PyNative default and what still compiles in it', () => {
  const tip = statusTooltip(pynativeDefault, line, true);
  assert.match(tip, /execution mode of this notebook/);
  assert.match(tip, /nothing here calls `set_context\(mode=…\)`.*PyNative by default/);
  assert.match(tip, /In PyNative only `@jit` functions compile/);
  const none = statusTooltip(mode({ compiledFunctions: 0, compiled: [], parsed: false }), line);
  assert.match(none, /\*\*Compiled: none\*\*/);
  assert.match(none, /does not parse/);
});

test('a run-time choice and repeated calls are spelled out', () => {
  const tip = statusTooltip(
    mode({ mode: 'UNKNOWN', modeChoices: ['GRAPH_MODE', 'PYNATIVE_MODE'], modeSetCount: 2 }),
    line,
  );
  assert.match(tip, /\*\*Mode: GRAPH_MODE or PYNATIVE_MODE\*\*, chosen at run time by/);
  assert.match(tip, /set 2 times; the last call wins/);
});

test('code spans survive backticks in the code', () => {
  assert.equal(code('a'), '`a`');
  assert.equal(code('f(`a`) + 1'), '``f(`a`) + 1``');
  assert.equal(code('x = `y`'), '`` x = `y` ``');
  assert.equal(code('``b``'), '``` ``b`` ```');
});

test('the quick pick goes to the calls and the compiled functions, then offers help', () => {
  const entries = pickEntries(mode(), line);
  const labels = entries.map((e) => e.label);
  assert.deepEqual(labels, [
    '$(go-to-file) set_context(mode=…)',
    'Compiled functions (3)',
    '$(symbol-method) Net.construct',
    '$(symbol-method) scale',
    '$(symbol-method) step',
    'Help',
    '$(settings-gear) Syntax level setting',
    '$(book) Graph-mode rules',
  ]);
  const construct = entries[2];
  assert.ok(construct?.kind === 'item');
  assert.equal(construct.description, 'Cell.construct · line 8');
  assert.deepEqual(construct.action, { kind: 'reveal', uri: FILE, line: 7 });
  const actions = pickEntries(pynativeDefault, line).flatMap((e) =>
    e.kind === 'item' ? [e.action.kind] : [],
  );
  assert.deepEqual(actions, ['reveal', 'reveal', 'reveal', 'settings', 'rules']);
});

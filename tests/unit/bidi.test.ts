import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayText } from '../../extension/webview/common/bidi';

const CONTROLS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];

test('every bidi control is stripped from displayed text', () => {
  for (const c of CONTROLS) {
    assert.equal(displayText(`Conv${c}2D`), 'Conv2D', `U+${c.codePointAt(0)?.toString(16)}`);
  }
  // The spoof of issue 19: a target whose tail reads backwards.
  assert.equal(displayText('model.py:\u202Etxt.exe'), 'model.py:txt.exe');
  assert.equal(displayText(CONTROLS.join('')), '');
});

test('letters of right-to-left scripts, joiners and emoji are kept', () => {
  for (const text of ['שלום', 'مرحبا', 'a\u200Db', '👩‍💻', 'x\u00A0y', 'Default/conv-Conv2d']) {
    assert.equal(displayText(text), text);
  }
});

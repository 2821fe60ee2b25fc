import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { exportFlags, isExportOptions } from '../../extension/src/codelens/exportFlags';
import { isExportReport, type ExportReport } from '../../extension/src/contracts/exportReport';
import {
  formatBytes,
  formatError,
  summaryLine,
  verificationRows,
} from '../../extension/webview/export/rows';

// A real report: ResNet-20 of examples/cifar_resnet exported with --quantize int8-static.
const FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'tests',
  'unit',
  'fixtures',
  'exportReport.json',
);

function report(): ExportReport {
  const value: unknown = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));
  assert.ok(isExportReport(value));
  return value;
}

test('a verification row per artefact, float ones judged and int8 measured', () => {
  const rows = verificationRows(report());
  assert.deepEqual(
    rows.map((r) => [r.format, r.runtime, r.status]),
    [
      ['MINDIR', 'GraphCell', 'ok'],
      ['ONNX', 'onnxruntime', 'ok'],
      ['ONNX-int8', 'onnxruntime', 'measured'],
    ],
  );
  const onnx = rows[1];
  assert.ok(onnx);
  assert.equal(onnx.file, 'ResNet.onnx');
  assert.match(onnx.maxAbsError, /^\d\.\d\de-8$/);
  assert.match(onnx.speedup, /× eager$/);
  assert.equal(onnx.dynamic, 'batch 4: no');
  assert.equal(rows[0]?.dynamic, 'batch 4: yes');
});

test('a failed verification shows its error', () => {
  const doc = report();
  const first = doc.artefacts[0];
  assert.ok(first);
  first.verification = { ...first.verification, ok: false, error: 'ValueError: 2 outputs' };
  const row = verificationRows(doc)[0];
  assert.ok(row);
  assert.equal(row.status, 'fail');
  assert.equal(row.detail, 'ValueError: 2 outputs');
});

test('sizes, errors and the summary line', () => {
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.5 KB');
  assert.equal(formatBytes(1217274), '1.16 MB');
  assert.equal(formatError(0), '0');
  assert.equal(formatError(null), '—');
  assert.equal(formatError(0.0011166), '1.12e-3');
  const line = summaryLine(report());
  assert.match(line, /^ResNet \(.*model\.py:resnet20\) · inputs 2×3×32×32:Float32 · 4 batches/);
  assert.match(line, /onnxruntime 1\.31\.1$/);
});

test('export options become runtime flags and are validated', () => {
  assert.deepEqual(exportFlags({ format: 'both', quantize: 'none' }), ['--format', 'both']);
  assert.deepEqual(exportFlags({ format: 'ONNX', quantize: 'int8-static' }), [
    '--format',
    'ONNX',
    '--quantize',
    'int8-static',
  ]);
  assert.ok(isExportOptions({ format: 'MINDIR', quantize: 'int8-dynamic' }));
  assert.ok(!isExportOptions({ format: 'TFLite', quantize: 'none' }));
  assert.ok(!isExportOptions(null));
});

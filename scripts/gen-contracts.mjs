// Generates extension/src/contracts/generated/*.ts from schemas/*.schema.json, so the TS
// contract types have one source: the schemas the Python side writes and validates against.
//   node scripts/gen-contracts.mjs          write the files
//   node scripts/gen-contracts.mjs --check  exit 1 (naming the files) if any file drifted
// The hand-written files in extension/src/contracts/ re-export these under the names the
// extension imports, and add what a schema cannot say (MIME types, type guards, messages).
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compile } from 'json-schema-to-typescript';
import prettier from 'prettier';
import { ROOT, writeOrCheck } from './lib/generated.mjs';

const SCHEMAS = join(ROOT, 'schemas');
const OUT = join(ROOT, 'extension', 'src', 'contracts', 'generated');

// TS names of the sub-schemas (JSON pointer → interface name). A schema's `title` is prose for
// people; these are the names the extension's code uses.
const NAMES = {
  'export-report': {
    '#': 'ExportReport',
    '#/properties/meta': 'ExportMeta',
    '#/properties/eager': 'EagerRun',
    '#/$defs/tensor': 'TensorSignature',
    '#/$defs/latency': 'Latency',
    '#/$defs/artefact': 'Artefact',
    '#/$defs/artefact/properties/format': 'ArtefactFormat',
    '#/$defs/artefact/properties/opHistogram/items': 'OpCount',
    '#/$defs/verification': 'Verification',
    '#/$defs/verification/properties/outputs/items': 'OutputError',
    '#/$defs/verification/properties/dynamicShape/oneOf/1': 'DynamicShapeCheck',
    '#/$defs/quantization': 'Quantization',
    '#/$defs/quantization/properties/worstLayers/oneOf/1/items': 'WorstLayer',
  },
  'cell-classes': {
    '#': 'CellClassesResult',
    '#/$defs/params': 'CellClassesParams',
    '#/$defs/cell': 'CellClassInfo',
  },
  'file-mode': {
    '#': 'FileMode',
    '#/$defs/params': 'FileModeParams',
    '#/$defs/location': 'SourceLocation',
    '#/$defs/compiledFunction': 'CompiledFunction',
    '#/properties/modeChoices/items': 'ExecutionMode',
    '#/properties/level': 'SyntaxLevel',
  },
  'findings-document': {
    '#': 'FindingsDocument',
    '#/properties/findings/items': 'Finding',
  },
  'graph-document': {
    '#': 'GraphDocument',
    '#/properties/meta': 'GraphMeta',
    '#/properties/error': 'GraphError',
    '#/properties/graphs/items': 'SubGraph',
    '#/properties/edges/items': 'GraphEdge',
    '#/properties/parameters/items': 'GraphParameter',
    '#/properties/patterns/items': 'FusionPattern',
    '#/$defs/shape': 'Shape',
    '#/$defs/inputDescription': 'InputDescription',
    '#/$defs/value': 'ValueDescription',
    '#/$defs/input': 'NodeInput',
    '#/$defs/location': 'SourceLocation',
    '#/$defs/node': 'GraphNode',
    '#/$defs/node/properties/category': 'NodeCategory',
    '#/$defs/scope': 'ScopeNode',
  },
  'profile-document': {
    '#': 'ProfileDocument',
    '#/properties/meta': 'ProfileMeta',
    '#/properties/ops/items': 'OpRow',
    '#/properties/byType/items': 'TypeRow',
    '#/properties/byCell/items': 'CellRow',
    '#/properties/steps/items': 'StepRow',
    '#/properties/ranks': 'RanksSection',
    '#/properties/ranks/properties/ranks/items': 'RankSummary',
    '#/properties/ranks/properties/steps/items': 'StragglerRow',
    '#/$defs/rankStep': 'RankStep',
    '#/$defs/traceEvent': 'TraceEvent',
  },
  'stats-document': {
    '#': 'StatsDocument',
    '#/properties/meta': 'StatsMeta',
    '#/$defs/inputDescription': 'InputDescription',
    '#/$defs/stats': 'TensorStats',
    '#/$defs/number': 'NullableNumber',
  },
  'summary-document': {
    '#': 'SummaryDocument',
    '#/$defs/run': 'SummaryRun',
    '#/$defs/run/properties/files/items': 'SummaryFile',
    '#/$defs/run/properties/scalars/items': 'ScalarSeries',
    '#/$defs/run/properties/graphs/items': 'RecordedGraph',
    '#/$defs/histogram': 'HistogramSample',
    '#/$defs/image': 'ImageSample',
    '#/$defs/tensor': 'TensorSample',
    '#/$defs/tensor/properties/stats': 'TensorStats',
    '#/$defs/issue': 'SummaryIssue',
    '#/$defs/issue/properties/kind': 'SummaryIssueKind',
    '#/$defs/number': 'NullableNumber',
  },
};

function at(schema, pointer) {
  let node = schema;
  for (const part of pointer.split('/').slice(1)) {
    node = node?.[part];
    if (node === undefined) return undefined;
  }
  return node;
}

// `{"type": "object"}` with no properties is a free-form object: with additionalProperties
// defaulting to false below it would become `{}`, so say so explicitly.
function markFreeObjects(node) {
  if (Array.isArray(node)) return node.forEach(markFreeObjects);
  if (typeof node !== 'object' || node === null) return;
  const types = [node.type].flat();
  const shaped = ['properties', 'additionalProperties', 'patternProperties', '$ref', 'allOf'];
  if (types.includes('object') && !shaped.some((k) => k in node)) node.additionalProperties = true;
  Object.values(node).forEach(markFreeObjects);
}

function camel(stem) {
  return stem.replace(/-(\w)/g, (_, c) => c.toUpperCase());
}

async function generate(file) {
  const stem = basename(file, '.schema.json');
  const names = NAMES[stem];
  if (!names) throw new Error(`scripts/gen-contracts.mjs: no names for schemas/${basename(file)}`);
  const schema = JSON.parse(readFileSync(file, 'utf8'));
  markFreeObjects(schema);
  for (const [pointer, name] of Object.entries(names)) {
    const node = at(schema, pointer);
    if (node === undefined) throw new Error(`schemas/${basename(file)}: no ${pointer}`);
    node.title = name;
  }
  const banner =
    `// Generated from schemas/${basename(file)} by scripts/gen-contracts.mjs: do not edit.\n` +
    '// Change the schema and run `npm run gen:contracts`.';
  const options = {
    bannerComment: banner,
    additionalProperties: false,
    unknownAny: true,
    format: false,
    // The root's $id is a URL: resolve $refs inside the document only.
    $refOptions: { resolve: { external: false } },
  };
  const ts = await compile(schema, names['#'], options);
  // A $def no other part refers to (e.g. a request's params) is not emitted with the root.
  const text = JSON.stringify(schema);
  const extra = [];
  for (const [pointer, name] of Object.entries(names)) {
    if (!/^#\/\$defs\/[^/]+$/.test(pointer) || text.includes(`"$ref":"${pointer}"`)) continue;
    const def = { ...at(schema, pointer), $defs: schema.$defs };
    extra.push(await compile(def, name, { ...options, bannerComment: '' }));
  }
  const prettierOptions = await prettier.resolveConfig(join(OUT, 'x.ts'));
  const out = await prettier.format([ts, ...extra].join('\n'), {
    ...prettierOptions,
    parser: 'typescript',
  });
  return { path: join(OUT, `${camel(stem)}.ts`), text: out };
}

const files = readdirSync(SCHEMAS)
  .filter((f) => f.endsWith('.schema.json'))
  .sort()
  .map((f) => join(SCHEMAS, f));
writeOrCheck(await Promise.all(files.map(generate)), 'npm run gen:contracts');

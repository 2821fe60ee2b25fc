// Generates the settings reference in docs/settings.md from package.json
// (contributes.configuration), between the `settings:start` / `settings:end` markers; the
// rest of the page is written by hand.
//   node scripts/gen-settings-doc.mjs          rewrite the page
//   node scripts/gen-settings-doc.mjs --check  exit 1 if the page drifted from package.json
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, writeOrCheck } from './lib/generated.mjs';

const START =
  '<!-- settings:start (generated from package.json by scripts/gen-settings-doc.mjs) -->';
const END = '<!-- settings:end -->';

const code = (value) => '`' + JSON.stringify(value) + '`';

/** One setting: a heading, its description, then its facts as a list. */
function settingSection(key, spec) {
  const lines = [`### \`${key}\``, ''];
  const description = spec.markdownDescription ?? spec.description;
  if (description) lines.push(description, '');
  const type = [spec.type].flat().join(' | ');
  lines.push(`- Type: ${type}`);
  lines.push(`- Default: ${code(spec.default)}`);
  lines.push(`- Scope: ${spec.scope ?? 'window'}`);
  if (spec.minimum !== undefined || spec.maximum !== undefined) {
    lines.push(`- Range: ${spec.minimum ?? '…'} to ${spec.maximum ?? '…'}`);
  }
  const values = spec.enum ?? spec.additionalProperties?.enum;
  if (values) {
    const what = spec.enum ? 'Values' : 'Values of each entry';
    lines.push(`- ${what}:`);
    const notes = spec.markdownEnumDescriptions ?? spec.enumDescriptions ?? [];
    values.forEach((v, i) => lines.push(`  - ${code(v)}${notes[i] ? `: ${notes[i]}` : ''}`));
  }
  if (spec.propertyNames?.pattern) lines.push(`- Keys match: \`${spec.propertyNames.pattern}\``);
  return lines.join('\n');
}

function settingsReference(configuration) {
  const sections = [configuration].flat().map((c) => {
    const settings = Object.entries(c.properties ?? {}).map(([k, s]) => settingSection(k, s));
    return [`## ${c.title}`, ...settings].join('\n\n');
  });
  return [START, '', ...sections, '', END].join('\n');
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const path = join(ROOT, 'docs', 'settings.md');
const page = readFileSync(path, 'utf8');
const start = page.indexOf(START);
const end = page.indexOf(END);
if (start < 0 || end < start) {
  console.error(`docs/settings.md: the markers ${START} … ${END} are missing`);
  process.exit(1);
}
const text =
  page.slice(0, start) +
  settingsReference(pkg.contributes.configuration) +
  page.slice(end + END.length);
writeOrCheck([{ path, text }], 'npm run gen:settings-doc');

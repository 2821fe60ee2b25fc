// Shared by the scripts that generate checked-in files from a single source (gen-contracts,
// gen-settings-doc): write the files, or with --check only report which ones drifted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @param {{ path: string, text: string }[]} files absolute paths and their wanted text
 * @param {string} fix the command that regenerates them, named in the drift message
 */
export function writeOrCheck(files, fix) {
  const check = process.argv.includes('--check');
  const drifted = [];
  for (const { path, text } of files) {
    const old = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (old === text) continue;
    const rel = path.slice(ROOT.length + 1);
    if (check) drifted.push(rel);
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      console.log(`wrote ${rel}`);
    }
  }
  if (drifted.length) {
    console.error(`${drifted.join(', ')} drifted from its source: run ${fix}`);
    process.exit(1);
  }
}

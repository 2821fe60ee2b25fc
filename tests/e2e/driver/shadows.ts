// The untrusted launch's workspace fixture: modules in the folder that shadow what the
// language server and the .mindir decoder import (json, runpy, mindscope_ls, mindscope_runtime).
// Written into the workspace before the launch and removed after it (issue 19, docs/security.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SHADOWS } from '../launches';

function created(workspace: string): string[] {
  const tops = new Set(SHADOWS.files.map((f) => f.split('/')[0] ?? f));
  return [...tops, SHADOWS.mindir].map((name) => path.join(workspace, name));
}

export function removeShadows(workspace: string): void {
  for (const p of created(workspace)) fs.rmSync(p, { recursive: true, force: true });
}

/** Each shadow, when imported, leaves `<markers>/<its path with / as _>`. */
export function writeShadows(workspace: string, repo: string, markers: string): void {
  removeShadows(workspace);
  fs.mkdirSync(markers, { recursive: true });
  for (const file of SHADOWS.files) {
    const target = path.join(workspace, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const marker = path.join(markers, file.replace(/\//g, '_'));
    fs.writeFileSync(target, `open(${JSON.stringify(marker)}, "w").close()\n`);
  }
  const mindir = path.join(repo, 'tests', 'python', 'runtime', 'fixtures', 'tiny_net.mindir');
  fs.copyFileSync(mindir, path.join(workspace, SHADOWS.mindir));
}

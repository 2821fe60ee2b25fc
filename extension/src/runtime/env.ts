// The environment the runtime CLI runs in: MindScope's Python packages from the extension,
// ahead of whatever PYTHONPATH the user has.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function runtimeEnv(extensionPath: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dirs = ['runtime', 'pyserver', 'kernel'].map((d) => path.join(extensionPath, d));
  const bundled = path.join(extensionPath, 'bundled', 'libs');
  if (fs.existsSync(bundled)) dirs.push(bundled);
  if (base.PYTHONPATH) dirs.push(base.PYTHONPATH);
  return { ...base, PYTHONPATH: dirs.join(path.delimiter), PYTHONUNBUFFERED: '1' };
}

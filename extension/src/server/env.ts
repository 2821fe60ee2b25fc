// Where the server's Python sources live inside the extension, and the environment that finds them.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function serverEnv(extensionPath: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dirs = [path.join(extensionPath, 'pyserver')];
  // A packaged .vsix carries pygls and jedi here, so any Python 3.9+ can run the server.
  const bundled = path.join(extensionPath, 'bundled', 'libs');
  if (fs.existsSync(bundled)) dirs.push(bundled);
  if (base.PYTHONPATH) dirs.push(base.PYTHONPATH);
  return { ...base, PYTHONPATH: dirs.join(path.delimiter), PYTHONUNBUFFERED: '1' };
}

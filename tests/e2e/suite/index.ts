// extensionTestsPath entry: VS Code calls run() inside the extension host.
import { runSuite } from './harness';
import { serverTests } from './server.test';

export async function run(): Promise<void> {
  await runSuite([...serverTests]);
}

// extensionTestsPath entry: VS Code calls run() inside the extension host.
import { runSuite } from './harness';
import { serverTests } from './server.test';
import { languageTests } from './language.test';
import { diagnosticsTests } from './diagnostics.test';
import { panelTests } from './panels.test';

export async function run(): Promise<void> {
  await runSuite([...serverTests, ...languageTests, ...diagnosticsTests, ...panelTests]);
}

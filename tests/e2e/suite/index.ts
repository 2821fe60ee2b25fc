// extensionTestsPath entry: VS Code calls run() inside the extension host. The driver starts
// one workbench per launch (launches.ts) and says which one this is.
import { E2E_ENV } from '../protocol';
import { runSuite } from './harness';
import { serverTests } from './server.test';
import { languageTests } from './language.test';
import { diagnosticsTests } from './diagnostics.test';
import { exportTests } from './export.test';
import { modeStatusTests } from './modeStatus.test';
import { notebookTests } from './notebook.test';
import { panelTests } from './panels.test';
import { sidePanelTests } from './sidePanel.test';
import { trustedTests, untrustedTests } from './trust.test';

export async function run(): Promise<void> {
  if (process.env[E2E_ENV.launch] === 'untrusted') {
    await runSuite(untrustedTests);
    return;
  }
  await runSuite([
    ...serverTests,
    ...languageTests,
    ...diagnosticsTests,
    ...panelTests,
    ...exportTests,
    ...sidePanelTests,
    ...modeStatusTests,
    ...notebookTests,
    ...trustedTests,
  ]);
}

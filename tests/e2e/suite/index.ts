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
import { notebookDebugTests, notebookDebugUntrustedTests } from './notebookDebug.test';
import { notebookRunTests, notebookUntrustedTests } from './notebookRun.test';
import { panelTests } from './panels.test';
import { distributedTests } from './distributed.test';
import { sidePanelTests } from './sidePanel.test';
import { summaryTests } from './summary.test';
import { trustedTests, untrustedTests } from './trust.test';

export async function run(): Promise<void> {
  if (process.env[E2E_ENV.launch] === 'untrusted') {
    await runSuite([...untrustedTests, ...notebookUntrustedTests, ...notebookDebugUntrustedTests]);
    return;
  }
  await runSuite([
    ...serverTests,
    ...languageTests,
    ...diagnosticsTests,
    ...panelTests,
    ...exportTests,
    ...sidePanelTests,
    // After the side panel's test, which reads the panel test's profile as the latest run.
    ...distributedTests,
    ...summaryTests,
    ...modeStatusTests,
    ...notebookTests,
    ...notebookRunTests,
    ...notebookDebugTests,
    ...trustedTests,
  ]);
}

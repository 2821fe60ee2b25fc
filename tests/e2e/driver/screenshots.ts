// Answers the suite's screenshot requests (one per test) and webview queries, and waits for
// its result file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { PROGRESS_FILE, RESULT_FILE, SuiteProgress, SuiteResult } from '../protocol';
import { serveWebviewQueries } from './webviewQueries';

export interface SuiteLimits {
  /** The whole suite's limit. */
  totalMs: number;
  /** How long the suite may go without starting or ending a test (the suite's own per-test
   *  limit plus a margin): past it the extension host is taken to be stuck. */
  idleMs: number;
}

export type SuiteOutcome =
  | { finished: true; result: SuiteResult }
  | { finished: false; progress: SuiteProgress | undefined; reason: string };

function readProgress(file: string): SuiteProgress | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as SuiteProgress;
  } catch {
    return undefined;
  }
}

export async function serveScreenshots(
  page: Page,
  dir: string,
  limits: SuiteLimits,
): Promise<SuiteOutcome> {
  const start = Date.now();
  const resultFile = path.join(dir, RESULT_FILE);
  const progressFile = path.join(dir, PROGRESS_FILE);
  let lastStamp = 0;
  let lastChange = start;
  for (;;) {
    for (const request of fs.readdirSync(dir).filter((f) => f.endsWith('.request'))) {
      const shot = path.join(dir, request.replace(/\.request$/, '.png'));
      await page.screenshot({ path: shot });
      fs.rmSync(path.join(dir, request));
    }
    await serveWebviewQueries(page, dir);
    if (fs.existsSync(resultFile)) {
      const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as SuiteResult;
      return { finished: true, result };
    }
    const stamp = fs.existsSync(progressFile) ? fs.statSync(progressFile).mtimeMs : 0;
    if (stamp !== lastStamp) [lastStamp, lastChange] = [stamp, Date.now()];
    const now = Date.now();
    if (now - start > limits.totalMs || now - lastChange > limits.idleMs) {
      const reason =
        now - start > limits.totalMs
          ? `the suite ran past its ${limits.totalMs} ms limit`
          : `no test started or ended for ${limits.idleMs} ms`;
      return { finished: false, progress: readProgress(progressFile), reason };
    }
    await page.waitForTimeout(200);
  }
}

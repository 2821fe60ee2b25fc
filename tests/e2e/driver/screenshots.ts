// Answers the suite's screenshot requests (one per test) and webview queries, and waits for
// its result file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RESULT_FILE, SuiteResult } from '../protocol';
import { serveWebviewQueries } from './webviewQueries';

export async function serveScreenshots(
  page: Page,
  dir: string,
  timeoutMs: number,
): Promise<SuiteResult | undefined> {
  const deadline = Date.now() + timeoutMs;
  const resultFile = path.join(dir, RESULT_FILE);
  while (Date.now() < deadline) {
    for (const request of fs.readdirSync(dir).filter((f) => f.endsWith('.request'))) {
      const shot = path.join(dir, request.replace(/\.request$/, '.png'));
      await page.screenshot({ path: shot });
      fs.rmSync(path.join(dir, request));
    }
    await serveWebviewQueries(page, dir);
    if (fs.existsSync(resultFile)) {
      return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as SuiteResult;
    }
    await page.waitForTimeout(200);
  }
  return undefined;
}

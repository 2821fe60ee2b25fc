// A tiny test runner for inside the extension host: sequential tests, a screenshot after each
// (taken by the driver, which owns the browser), results as JSON for the driver.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { E2E_ENV, RESULT_FILE, selected, SuiteResult, TestResult } from '../protocol';

export interface E2ETest {
  name: string;
  run: () => Promise<void>;
}

export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through tests/e2e/driver`);
  return value;
}

/** Polls `probe` until it returns a value that `done` accepts; never a fixed sleep. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (done(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Asks the driver for a screenshot of the workbench as it is now (`<results>/<name>.png`). */
export async function screenshot(dir: string, name: string): Promise<void> {
  const slug = name.replace(/[^\w-]+/g, '_');
  fs.writeFileSync(path.join(dir, `${slug}.request`), '');
  const png = path.join(dir, `${slug}.png`);
  await waitFor(`screenshot ${slug}`, () => fs.existsSync(png), Boolean, 15_000).catch(() => {
    // A missing screenshot must not fail the test it illustrates.
  });
}

export async function runSuite(tests: E2ETest[]): Promise<void> {
  const dir = env(E2E_ENV.results);
  const grep = process.env[E2E_ENV.grep];
  const results: TestResult[] = [];
  for (const t of tests.filter((test) => selected(grep, test.name))) {
    const start = Date.now();
    try {
      await t.run();
      results.push({ name: t.name, ok: true, ms: Date.now() - start });
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      results.push({ name: t.name, ok: false, ms: Date.now() - start, error });
    }
    await screenshot(dir, t.name);
  }
  const suite: SuiteResult = { vscodeVersion: vscode.version, tests: results };
  const file = path.join(dir, RESULT_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(suite, null, 1));
  fs.renameSync(`${file}.tmp`, file);
}

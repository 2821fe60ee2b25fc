// A tiny test runner for inside the extension host: sequential tests, a screenshot after each
// (taken by the driver, which owns the browser), results as JSON for the driver.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  E2E_ENV,
  PROGRESS_FILE,
  RESULT_FILE,
  selected,
  SuiteProgress,
  SuiteResult,
  TestResult,
} from '../protocol';

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

/** A test that takes longer than this fails alone, and the suite goes on to the next one. */
const TEST_TIMEOUT_MS = Number(process.env[E2E_ENV.testTimeout] ?? 8 * 60_000);

function withTimeout(name: string, run: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`"${name}" did not finish in ${TEST_TIMEOUT_MS} ms`)),
      TEST_TIMEOUT_MS,
    );
  });
  return Promise.race([run(), expired]).finally(() => clearTimeout(timer));
}

/** Written atomically, so the driver never reads half a file. */
function writeJson(file: string, value: unknown): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value, null, 1));
  fs.renameSync(`${file}.tmp`, file);
}

export async function runSuite(tests: E2ETest[]): Promise<void> {
  const dir = env(E2E_ENV.results);
  const grep = process.env[E2E_ENV.grep];
  const results: TestResult[] = [];
  const progress = (running?: string): void =>
    writeJson(path.join(dir, PROGRESS_FILE), { running, tests: results } satisfies SuiteProgress);
  for (const t of tests.filter((test) => selected(grep, test.name))) {
    progress(t.name);
    const start = Date.now();
    try {
      await withTimeout(t.name, t.run);
      results.push({ name: t.name, ok: true, ms: Date.now() - start });
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      results.push({ name: t.name, ok: false, ms: Date.now() - start, error });
    }
    await screenshot(dir, t.name);
  }
  progress();
  writeJson(path.join(dir, RESULT_FILE), {
    vscodeVersion: vscode.version,
    tests: results,
  } satisfies SuiteResult);
}

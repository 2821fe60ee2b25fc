// What the driver (plain Node) and the suite (inside the extension host) agree on.

export const E2E_ENV = {
  results: 'MINDSCOPE_E2E_RESULTS',
  repo: 'MINDSCOPE_E2E_REPO',
  python: 'MINDSCOPE_E2E_PYTHON',
  /** Which workbench launch the suite runs in (see launches.ts). */
  launch: 'MINDSCOPE_E2E_LAUNCH',
  /** Set by the user: only tests whose name matches this regular expression (case-insensitive). */
  grep: 'MINDSCOPE_E2E_GREP',
  /** Set by the user: one test's time limit in ms (default 8 minutes). */
  testTimeout: 'MINDSCOPE_E2E_TEST_TIMEOUT_MS',
} as const;

/** True when the test named `name` is selected by the MINDSCOPE_E2E_GREP pattern. */
export function selected(grep: string | undefined, name: string): boolean {
  return !grep || new RegExp(grep, 'i').test(name);
}

export const RESULT_FILE = 'results.json';

export interface TestResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

export interface SuiteResult {
  vscodeVersion: string;
  tests: TestResult[];
}

/** Rewritten by the suite before each test, so a suite that never ends still says how far it got. */
export const PROGRESS_FILE = 'progress.json';

export interface SuiteProgress {
  /** The test running now; absent once the last one has ended. */
  running?: string;
  tests: TestResult[];
}

// Looking inside webviews: the suite cannot reach a webview's DOM, the driver (which owns the
// browser) can. The suite writes `<id>.query.json` into the results folder; the driver finds
// the webview frame whose document title contains `title`, runs the action on the elements
// matching `selector`, and writes `<id>.answer.json`.
export const QUERY_SUFFIX = '.query.json';
export const ANSWER_SUFFIX = '.answer.json';

export type WebviewAction =
  | { kind: 'count' }
  | { kind: 'texts' }
  | { kind: 'attribute'; name: string }
  /** A real mouse click at the element's centre (what a user does). */
  | { kind: 'click'; nth?: number }
  /** The mouse moved over the element (tooltips, hovers). */
  | { kind: 'hover'; nth?: number }
  /** The DOM event only: for elements that may sit under an overlay or off screen. */
  | { kind: 'dispatch'; event: 'click' | 'dblclick'; nth?: number }
  /** Types `text` into an input (replacing its value), then presses Enter: a user answering. */
  | { kind: 'fill'; text: string; nth?: number };

export interface WebviewQuery {
  id: string;
  /** 'workbench': the workbench page itself (e.g. CodeLens links), else webview frames only. */
  frame?: 'webview' | 'workbench';
  title: string;
  selector: string;
  action: WebviewAction;
}

export interface WebviewAnswer {
  id: string;
  /** Titles of all frames searched: helps when no webview matched. */
  titles: string[];
  found: boolean;
  count: number;
  values?: (string | null)[];
  error?: string;
}

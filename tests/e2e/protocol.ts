// What the driver (plain Node) and the suite (inside the extension host) agree on.

export const E2E_ENV = {
  results: 'MINDSCOPE_E2E_RESULTS',
  repo: 'MINDSCOPE_E2E_REPO',
  python: 'MINDSCOPE_E2E_PYTHON',
} as const;

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

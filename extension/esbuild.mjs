// Bundles the extension, its end-to-end test entry and driver, and the unit tests.
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const unitTests = readdirSync('tests/unit')
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `tests/unit/${f}`);

/**
 * `import source from 'elkjs-worker-source'`: the text of elkjs's worker script, from which the
 * graph view starts its layout worker as a blob: URL (extension/webview/graph/layout/elkWorker.ts).
 * @type {esbuild.Plugin}
 */
const elkWorkerSource = {
  name: 'elk-worker-source',
  setup(build) {
    build.onResolve({ filter: /^elkjs-worker-source$/ }, () => ({
      path: 'elkjs-worker-source',
      namespace: 'elk-worker-source',
    }));
    build.onLoad({ filter: /.*/, namespace: 'elk-worker-source' }, () => ({
      contents: readFileSync('node_modules/elkjs/lib/elk-worker.min.js', 'utf8'),
      loader: 'text',
    }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: { extension: 'extension/src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
  {
    // Runs inside VS Code's extension host (extensionTestsPath).
    entryPoints: { 'test/e2e/index': 'tests/e2e/suite/index.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
  {
    // Runs in plain Node: starts code-server and drives Chromium.
    entryPoints: {
      'test/e2e/driver': 'tests/e2e/driver/main.ts',
      'demo/serve': 'scripts/workbench/demo.ts',
      'bench/panel_render': 'bench/panel_render.ts',
      'bench/summary_panel': 'bench/summary_panel.ts',
      'bench/graph_fold': 'bench/graph_fold.ts',
    },
    outdir: 'dist',
    external: ['playwright-core'],
  },
  {
    entryPoints: unitTests,
    outdir: 'dist/test/unit',
    // playwright-core: the graph memory test drives Chromium.
    external: ['vscode', 'playwright-core'],
    plugins: [elkWorkerSource],
  },
  // The webview bundles: browser code that never imports vscode (panels, .mindir editor).
  {
    entryPoints: {
      'webview/graph': 'extension/webview/graph/main.ts',
      'webview/profile': 'extension/webview/profile/main.ts',
      'webview/sidebar': 'extension/webview/sidebar/main.ts',
      'webview/summary': 'extension/webview/summary/main.ts',
      'webview/export': 'extension/webview/export/main.ts',
    },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    loader: { '.css': 'css' },
    minify: true,
    plugins: [elkWorkerSource],
  },
  {
    // The notebook renderer: an ES module VS Code loads into the notebook's webview.
    entryPoints: { 'webview/renderer': 'extension/webview/renderer/index.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'esm',
    target: 'chrome120',
    loader: { '.css': 'text' },
    minify: true,
    plugins: [elkWorkerSource],
  },
].map((b) => ({
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  ...b,
}));

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

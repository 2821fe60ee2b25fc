// The workbench launches of an end-to-end run. Trust is decided when the workbench starts, so
// the untrusted-workspace tests need a code-server of their own. Shared by the driver (plain
// Node) and the suite (extension host): no `vscode` here.

export type LaunchName = 'trusted' | 'untrusted';

export interface Launch {
  name: LaunchName;
  /** User settings besides the common ones. */
  settings: Record<string, unknown>;
}

export const LAUNCHES: readonly Launch[] = [
  // The folder counts as trusted: everything runs.
  { name: 'trusted', settings: { 'security.workspace.trust.enabled': false } },
  // Trust on, and no start-up dialog: the folder opens in Restricted Mode, as it does for a
  // user who has not (yet) trusted it.
  {
    name: 'untrusted',
    settings: {
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
    },
  },
];

/** The names of the untrusted launch's tests: the driver skips that launch when the
 * MINDSCOPE_E2E_GREP filter selects none of them. */
export const UNTRUSTED_TESTS = {
  restricted: 'untrusted: the folder is in Restricted Mode and the server still runs',
  commands: 'untrusted: commands that run code are hidden from the palette and refuse to run',
  codeLens: 'untrusted: no Show graph / Profile / Debug CodeLens',
  sidebar: 'untrusted: the side panel disables the Cell actions',
  shadows:
    'untrusted: with json.py, mindscope_ls/ and mindscope_runtime/ in the folder, the server and a .mindir there run none of them',
  notebook: 'untrusted: running a notebook cell starts no kernel and says why',
  notebookDebug: 'untrusted: Debug Cell starts no debug session and no kernel',
} as const;

/** What the driver puts in the workspace folder for the untrusted launch (and removes after):
 * modules that shadow what our Python children import. Each one, if Python ever imported it,
 * leaves a file named after it in `<results>/<SHADOW_MARKERS>/`. */
export const SHADOWS = {
  files: [
    'json.py',
    'runpy.py',
    'mindscope_ls/__init__.py',
    'mindscope_ls/__main__.py',
    'mindscope_runtime/__init__.py',
    'mindscope_runtime/__main__.py',
  ],
  /** A copy of tests/python/runtime/fixtures/tiny_net.mindir beside them. */
  mindir: 'shadowed.mindir',
  markers: 'shadow-markers',
} as const;

// Drives JupyterLab's debugger UI in headless Chromium (playwright-core), for
// test_jupyterlab_debugger.py:
//   node jupyterlab_driver.js '{"base": "http://127.0.0.1:PORT", "notebook": "debug.ipynb",
//     "cell": 1, "line": 7, "screenshot": "out.png", "timeoutMs": 180000}'
// Opens the notebook, waits for its kernel, runs the cells before `cell`, enables the debugger,
// clicks the breakpoint gutter beside `line` of `cell`, runs that cell, waits for the debugger
// to stop, then continues. Prints one JSON line with what the UI showed; exit 1 on failure.
'use strict';
const { chromium } = require('playwright-core');

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

async function main() {
  const opts = JSON.parse(process.argv[2]);
  const timeout = opts.timeoutMs || 180000;
  const report = { steps: [] };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ARGS,
  });
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  page.setDefaultTimeout(timeout);
  const step = (name) => report.steps.push(name);
  try {
    await openNotebook(page, opts, report);
    step('kernel idle');
    const cells = page.locator('.jp-NotebookPanel:visible .jp-Notebook .jp-Cell');
    for (let i = 0; i < opts.cell; i++) await runCell(page, cells.nth(i));
    step('earlier cells ran');
    await enableDebugger(page);
    step('debugger enabled');
    await setBreakpoint(page, cells.nth(opts.cell), opts.line);
    step('breakpoint set');
    await startCell(page, cells.nth(opts.cell));
    const frame = page.locator('.jp-DebuggerCallstackFrame').first();
    await frame.waitFor();
    report.frame = (await frame.locator('.jp-DebuggerCallstackFrame-name').innerText()).trim();
    report.location = await frame.locator('.jp-DebuggerCallstackFrame-location').innerText();
    const current = page.locator('.jp-NotebookPanel:visible .cm-line.jp-DebuggerEditor-highlight');
    await current.first().waitFor();
    report.highlighted = await current.allInnerTexts();
    const variables = page.locator('.jp-DebuggerVariables-body:visible').first();
    await variables.getByText('Tensor').first().waitFor();
    report.variables = await variables.innerText();
    step('stopped');
    await page.screenshot({ path: opts.screenshot });
    await page.locator('.jp-DebuggerPausedOverlay button[title="Continue"]').click();
    const output = cells.nth(opts.cell).locator('.jp-OutputArea-output');
    await output.filter({ hasText: opts.expectOutput }).first().waitFor();
    report.output = await output.allInnerTexts();
    step('continued');
    report.ok = true;
  } catch (err) {
    report.ok = false;
    report.error = String((err && err.stack) || err);
    await page.screenshot({ path: opts.screenshot }).catch(() => undefined);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report) + '\n');
  return report.ok ? 0 : 1;
}

async function openNotebook(page, opts, report) {
  await page.goto(`${opts.base}/lab/tree/${opts.notebook}?reset`);
  const panel = page.locator('.jp-NotebookPanel:visible');
  await panel.waitFor();
  // JupyterLab asks which kernel to start (the notebook's own is preselected): choose MindScope.
  const dialog = page.locator('.jp-Dialog');
  await kernelReadyOr(page, opts.kernelDisplayName, true);
  if (await dialog.isVisible()) {
    await dialog.locator('select').selectOption({ label: opts.kernelDisplayName });
    await dialog.locator('.jp-mod-accept').click();
    await kernelReadyOr(page, opts.kernelDisplayName, false);
  }
  report.kernelName = (await panel.locator('.jp-Toolbar-kernelName').innerText()).trim();
}

// Resolves when the visible notebook's kernel is `name` and idle (or a dialog is up).
function kernelReadyOr(page, name, orDialog) {
  return page.waitForFunction(
    ([wanted, dialogToo]) => {
      if (dialogToo && document.querySelector('.jp-Dialog')) return true;
      const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(
        (p) => p.offsetParent !== null,
      );
      const kernel = panel && panel.querySelector('.jp-Toolbar-kernelName');
      const state = panel && panel.querySelector('.jp-Notebook-ExecutionIndicator');
      return (
        !!kernel &&
        kernel.textContent.trim() === wanted &&
        !!state &&
        state.getAttribute('data-status') === 'idle'
      );
    },
    [name, orDialog],
  );
}

async function startCell(page, cell) {
  await cell.locator('.cm-content').click();
  await page.keyboard.press('Control+Enter');
}

// Runs a cell and waits for its prompt to show a new execution count.
async function runCell(page, cell) {
  const prompt = cell.locator('.jp-InputPrompt');
  const before = (await prompt.innerText()).trim();
  await startCell(page, cell);
  await prompt.filter({ hasText: /\[\d+\]/ }).filter({ hasNotText: before }).waitFor();
}

async function enableDebugger(page) {
  const bug = page.locator('.jp-NotebookPanel:visible .jp-DebuggerBugButton');
  await bug.locator('button:not([disabled]), :scope:not([disabled])').first().waitFor();
  await bug.click();
  await page.locator('.jp-DebuggerSidebar').waitFor({ state: 'visible' });
}

async function setBreakpoint(page, cell, line) {
  const gutter = cell.locator('.cm-gutter.cm-breakpoint-gutter');
  await gutter.waitFor();
  const row = cell.locator('.cm-line').nth(line - 1);
  const g = await gutter.boundingBox();
  const r = await row.boundingBox();
  await page.mouse.click(g.x + g.width / 2, r.y + r.height / 2);
  const listed = page.locator('.jp-DebuggerBreakpoint .jp-DebuggerBreakpoint-line');
  await listed.filter({ hasText: String(line) }).first().waitFor();
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stdout.write(JSON.stringify({ ok: false, error: String(err) }) + '\n');
    process.exit(1);
  },
);

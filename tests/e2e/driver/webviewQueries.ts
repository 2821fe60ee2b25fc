// Answers the suite's webview queries (see protocol.ts): webviews are nested iframes that only
// the browser side can reach.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { ANSWER_SUFFIX, QUERY_SUFFIX, type WebviewAnswer, type WebviewQuery } from '../protocol';

async function titleOf(frame: Frame): Promise<string> {
  try {
    return await frame.title();
  } catch {
    return '';
  }
}

async function answer(page: Page, q: WebviewQuery): Promise<WebviewAnswer> {
  const titles: string[] = [];
  let match: { frame: Frame; count: number } | undefined;
  // The first webview frame whose title matches and that has matching elements; else the
  // first one whose title matches (count 0). An empty title matches every frame.
  const frames =
    q.frame === 'workbench'
      ? [page.mainFrame()]
      : page.frames().filter((f) => f !== page.mainFrame());
  for (const frame of frames) {
    const title = await titleOf(frame);
    if (title) titles.push(title);
    if (!title.includes(q.title) || (match && match.count > 0)) continue;
    const count = await frame
      .locator(q.selector)
      .count()
      .catch(() => 0);
    if (!match || count > 0) match = { frame, count };
  }
  if (!match) return { id: q.id, titles, found: false, count: 0 };
  const elements = match.frame.locator(q.selector);
  const base = { id: q.id, titles, found: true, count: match.count };
  switch (q.action.kind) {
    case 'count':
      return base;
    case 'texts':
      return { ...base, values: await elements.allTextContents() };
    case 'attribute': {
      const values = await elements.evaluateAll(
        (els, n) => els.map((e) => e.getAttribute(n)),
        q.action.name,
      );
      return { ...base, values };
    }
    case 'fill': {
      if (!match.count) return { ...base, error: `nothing matches ${q.selector}` };
      const input = elements.nth(q.action.nth ?? 0);
      await input.fill(q.action.text, { timeout: 10_000 });
      await input.press('Enter');
      return base;
    }
    case 'click':
    case 'hover':
    case 'dispatch': {
      if (!match.count) return { ...base, error: `nothing matches ${q.selector}` };
      const target = elements.nth(q.action.nth ?? 0);
      if (q.action.kind === 'click') await target.click({ timeout: 10_000 });
      else if (q.action.kind === 'hover') await target.hover({ timeout: 10_000 });
      else await target.dispatchEvent(q.action.event);
      return base;
    }
  }
}

/** Answers every pending query in `dir`; never throws (an error becomes the answer). */
export async function serveWebviewQueries(page: Page, dir: string): Promise<void> {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(QUERY_SUFFIX))) {
    const queryPath = path.join(dir, file);
    let result: WebviewAnswer;
    let id = file.slice(0, -QUERY_SUFFIX.length);
    try {
      const q = JSON.parse(fs.readFileSync(queryPath, 'utf8')) as WebviewQuery;
      id = q.id;
      result = await answer(page, q);
    } catch (e) {
      result = { id, titles: [], found: false, count: 0, error: String(e) };
    }
    fs.rmSync(queryPath, { force: true });
    const out = path.join(dir, `${id}${ANSWER_SUFFIX}`);
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(result));
    fs.renameSync(`${out}.tmp`, out);
  }
}

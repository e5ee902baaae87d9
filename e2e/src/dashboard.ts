import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Stack } from './stack.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The dashboard's own sign-in page, asked for a link; the link as the mailbox received it, opened. */
export async function signInByLink(browser: Browser, stack: Stack, email: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const { url, mailbox } = stack.dashboard!;
  const context = await browser.newContext({ viewport });
  const tab = await context.newPage();
  tab.on('pageerror', (err) => expect.fail(`page error on ${tab.url()}: ${err.message}`));
  await tab.goto(`${url}/`);
  await tab.getByLabel('E-mail address').fill(email);
  await tab.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await tab.getByText('a sign-in link is on its way').waitFor();
  const mail = await mailbox.nextMailTo(email);
  const link = /https?:\/\/\S+\/sign-in#token=[\w-]+/.exec(mail.text)![0];
  await tab.goto(link);
  await tab.getByRole('button', { name: 'Sign out' }).waitFor();
  return tab;
}

/** axe-core's serious and critical violations on the page as it is now (none expected). */
export async function seriousViolations(tab: Page): Promise<string[]> {
  await tab.evaluate(axeSource);
  // A string: this project compiles without the DOM's types; the page has `axe` and `document`.
  const results = await tab.evaluate<{
    violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }>;
  }>('axe.run(document)');
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** True when the page is no wider than its window: nothing to scroll sideways at phone width. */
export const fitsWidth = (tab: Page) => tab.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

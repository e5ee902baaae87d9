import type { Page } from 'playwright-core';

/**
 * Everything a tab reports going wrong, from the moment it is watched: console errors (a blocked
 * resource under the page's Content-Security-Policy is one), uncaught exceptions, failed requests and
 * answers of 400 or more (a /favicon.ico the page never meant to ask for would be one).
 */
export function watchProblems(tab: Page): string[] {
  const problems: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  tab.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  tab.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  tab.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}

/** Whether every image has arrived and decoded (typed by hand: this project compiles without the DOM's types). */
export const loaded = (images: Array<{ complete: boolean; naturalWidth: number }>) =>
  images.every((image) => image.complete && image.naturalWidth > 0);

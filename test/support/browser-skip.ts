import { noBrowser } from './browser.js';

/**
 * Whether the browser tests are skipped here: only where there is no
 * Chromium, and never in CI (`CI` set), where a missing browser must fail
 * them rather than let them pass unrun (`.ci/run` installs Debian's).
 */
export const skipWithoutBrowser: boolean = noBrowser !== undefined && !process.env.CI;

/** A browser suite's title, saying why it is skipped when it is. */
export function browserSuite(title: string): string {
  return skipWithoutBrowser ? `${title} (skipped: ${noBrowser})` : title;
}

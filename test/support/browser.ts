import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium; CI installs it (`.ci/run`), and `npx playwright install` cannot work offline. */
export const chromiumPath = process.env.PETSTORE_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const noBrowser: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath} (apt-get install -y chromium, or set PETSTORE_CHROMIUM)`;

/** Headless Chromium with nothing that reaches outside the machine; `extraArgs` such as `--host-resolver-rules`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

/**
 * The names the origin tests give this machine, as a site of another origin (`evil.test`) and one a DNS rebinding
 * points here (`rebind.test`): the shared browser resolves them to 127.0.0.1 for every file, so that one launch
 * serves them all (no other test asks for those names).
 */
const testHostRules = '--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1';

let shared: Promise<Browser> | undefined;

/**
 * This process's headless Chromium, launched by the first test file that asks for it and kept for the files that run
 * after it in the same process (vitest runs a worker's files one after another there): a launch costs about 1.5 s
 * of CPU, and a run has about ten files with pages. Each file opens contexts of its own and closes them when it ends
 * (`closeContexts`), never the browser; Playwright stops it when the process exits.
 */
export async function sharedChromium(): Promise<Browser> {
  shared ??= launchChromium([testHostRules]).catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  const browser = await shared;
  if (browser.isConnected()) return browser;
  shared = undefined;
  return sharedChromium();
}

/** For a file's `afterAll`: closes every context (and its pages) open in the shared browser, which stays running. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** What `page` reports as going wrong from now on (uncaught errors, console errors), for a failure's message. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedChromium } from '../support/browser.js';
import { browserSuite, skipWithoutBrowser } from '../support/browser-skip.js';
import { startMockWithPages } from '../support/serve-pages.js';
import type { RunningServer } from '../support/start-server.js';
import { type DocumentName, documents } from './support/lifecycles.js';

// The API reference at / shows the operations of the document the mock serves, whichever it is.
const expected: Record<DocumentName, string[]> = {
  kit: ['GET /pets', 'POST /pets', 'GET /pets/{petId}'],
  'with-replace-and-delete': [
    'GET /pets',
    'POST /pets',
    'GET /pets/{petId}',
    'PUT /pets/{petId}',
    'DELETE /pets/{petId}',
  ],
  'without-get-pet': ['GET /pets', 'POST /pets'],
  'with-categories': [
    'GET /pets',
    'POST /pets',
    'GET /pets/{petId}',
    'PATCH /pets/{petId}',
    'DELETE /pets/{petId}',
    'GET /categories',
    'POST /categories',
    'GET /categories/{categoryId}',
  ],
  'renamed-to-animals': ['GET /animals', 'POST /animals', 'GET /animals/{id}'],
};

describe.skipIf(skipWithoutBrowser)(browserSuite('the API reference page, for each document'), () => {
  let browser: Browser;
  const started: RunningServer[] = [];
  beforeAll(async () => {
    browser = await sharedChromium();
  }, 180_000);
  afterAll(async () => {
    await closeContexts(browser);
    await Promise.all(started.map((server) => server.close()));
  });

  const lists = async (name: DocumentName) => {
    const mock = await startMockWithPages({ document: documents[name] });
    started.push(mock);
    const page = await browser.newPage();
    await page.goto(mock.origin);
    await page.waitForSelector('.opblock', { timeout: 90_000 });
    const shown = await page
      .locator('.opblock-summary')
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('[data-path]')?.getAttribute('data-path')}`,
        ),
      );
    expect(shown).toEqual(expected[name]);
    await page.close();
  };
  for (const name of Object.keys(documents) as DocumentName[]) {
    it(`lists the operations of the ${name} document`, () => lists(name), 40_000);
  }
});

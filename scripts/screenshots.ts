/**
 * `npm run screenshots`: refreshes the pictures of the web pages in docs/images/, taken in headless
 * Chromium (Debian's, as the browser tests use) from a mock started for the purpose, with some traffic.
 */
import { join } from 'node:path';
import { launchChromium, noBrowser } from '../test/support/browser.js';
import { startMockWithPages } from '../test/support/serve-pages.js';
import { projectRoot } from './generated-files.js';

if (noBrowser) {
  process.stderr.write(`screenshots: ${noBrowser}\n`);
  process.exit(1);
}
const images = join(projectRoot, 'docs', 'images');
const mock = await startMockWithPages({ scenario: 'edge-cases' });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(mock.origin);
  await page.waitForSelector('.opblock');
  await page.screenshot({ path: join(images, 'reference.png') });

  const auth = { Authorization: 'Bearer dev-key' };
  await fetch(`${mock.baseUrl}/pets?status=sold`, { headers: auth });
  await fetch(`${mock.baseUrl}/pets/4`, { headers: auth });
  await fetch(`${mock.baseUrl}/pets`, { headers: { ...auth, 'Petstore-Session': 'qa-worker-2' } });
  await page.goto(`${mock.origin}/__admin/ui`);
  await page.getByLabel('API key').fill('dev-key');
  await page.getByRole('button', { name: 'Use this key' }).click();
  await page.locator('#panels').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.getElementById('sessions-rows')?.textContent?.includes('qa-worker-2'));
  await page.screenshot({ path: join(images, 'dashboard.png') });
  process.stdout.write(`wrote ${join(images, 'reference.png')} and ${join(images, 'dashboard.png')}\n`);
} finally {
  await browser.close();
  await mock.close();
}

// The app in a real browser, as a team runs it in development: the kit's handlers in MSW's service worker
// (setupWorker, mockServiceWorker.js from the msw the project installed), the component on the page's own
// origin. What it saw goes into the page, for test/project/app-suite-msw-*.test.ts to read.
import { setupWorker } from 'msw/browser';
import { createMockHandlers } from 'petstore-kit/msw';
import { createPetClient } from '../src/pet-client.js';
import { mountPetList } from '../src/pet-list.js';

const seen: Record<string, unknown> = {};
const handlers = createMockHandlers({ scenario: 'one-of-each-status' });
await setupWorker(...handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });

const root = document.createElement('div');
document.body.append(root);
const view = mountPetList(root, createPetClient(`${location.origin}/v1`, 'dev-key'));
await view.refresh();
seen.listed = [...root.querySelectorAll('li')].map((item) => item.textContent);
seen.added = await view.add({ name: 'Zoë 🐱', categoryId: 2, status: 'sold' });
seen.afterAdd = root.querySelectorAll('li').length;

// A broken connection from the mock's typed control: HttpResponse.error() through the worker, a rejected fetch.
handlers.mock.scheduleFault({ operationId: 'listPets', fault: 'connection_reset' });
seen.fault = await fetch('/v1/pets', { headers: { Authorization: 'Bearer dev-key' } }).then(
  (response) => `answered ${response.status}`,
  (error: unknown) => `rejected: ${(error as Error).name}`,
);

document.body.dataset.seen = JSON.stringify(seen);

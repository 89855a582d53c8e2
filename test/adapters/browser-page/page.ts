// The page the browser test opens: it mocks the API with the kit's MSW handlers in a service worker, then
// uses the API as a frontend would and writes what it saw into the page for the test to read.
import { setupWorker } from 'msw/browser';
import { createMockHandlers } from '../../../src/msw.js';
import { runTimeCompiler } from '../../../src/run-time-compiler.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const output = document.getElementById('output') as HTMLElement;
const show = (label: string, value: unknown) => {
  const line = document.createElement('li');
  line.dataset.step = label;
  line.textContent = JSON.stringify(value);
  output.append(line);
};

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(path, init);
  return { status: response.status, body: await response.text() };
}

const handlers = createMockHandlers({ baseUrl: '/v1', keys: ['browser-key'], scenario: 'one-of-each-status' });
// A document of the page's own (the kit's, retitled: its precompiled validators no longer match), compiled here at
// run time by the compiler the page gives, as a page whose policy allows eval may.
const ownDocument = { ...defaultDocument, info: { ...defaultDocument.info, title: 'A document of the page’s own' } };
const ownHandlers = createMockHandlers({
  baseUrl: '/own/v1',
  keys: ['browser-key'],
  scenario: 'one-of-each-status',
  document: ownDocument,
  validators: runTimeCompiler,
});
const worker = setupWorker(...handlers, ...ownHandlers);
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });

const auth = { Authorization: 'Bearer browser-key' };
show('list', await call('/v1/pets', { headers: auth }));
show(
  'create',
  await call('/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: '{"name":"Zoë 🐱","categoryId":9007199254740993,"status":"sold"}',
  }),
);
show('read', await call('/v1/pets/4', { headers: auth }));
show(
  'invalid',
  await call('/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: '{"name":"Rex"}',
  }),
);
show('unauthorized', await call('/v1/pets'));
show('own-list', await call('/own/v1/pets', { headers: auth }));
show(
  'own-invalid',
  await call('/own/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: '{"name":"Rex","categoryId":1.5}',
  }),
);
document.body.dataset.done = 'true';

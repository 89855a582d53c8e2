/* global Request */
// A document of the user's own, its validators precompiled with `npx petstore-kit precompile` into validators.js
// (which exports the document too): the browser entry serves it with them, and refuses them for a changed document.
import { createMock } from 'petstore-kit/browser';
import validators, { document } from './validators.js';

const headers = { authorization: 'Bearer dev-key', 'content-type': 'application/json' };
const mock = createMock({ document, validators });
const created = await mock.fetch(
  new Request('http://mock.test/v1/pets', { method: 'POST', headers, body: '{"name":"Rex","categoryId":2}' }),
);
const refused = await mock.fetch(
  new Request('http://mock.test/v1/pets', { method: 'POST', headers, body: '{"name":"Rex"}' }),
);
let changed;
try {
  createMock({ document: { ...document, info: { ...document.info, version: '9.9.9' } }, validators });
  changed = 'accepted';
} catch (error) {
  changed = error.message;
}
process.stdout.write(`${JSON.stringify({ created: created.status, refused: refused.status, changed })}\n`);

/* global Request */
// Run where the packed petstore-kit was installed without its optional peer @stoplight/prism-http: a document with
// an operation the kit has no handler for still starts, and that operation answers a clear Error body.
import { createMock } from 'petstore-kit';

// The kit's own document, as any mock serves it, with one more operation.
const served = await createMock().fetch(new Request('http://mock.test/openapi.json'));
const document = await served.json();
document.paths['/pets/{petId}/photos'] = {
  get: {
    operationId: 'listPhotos',
    parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
    responses: { 200: { description: 'The photos', content: { 'application/json': { schema: { type: 'array' } } } } },
  },
};
const mock = createMock({ document, scenario: 'one-of-each-status' });
const headers = { authorization: 'Bearer dev-key' };
const photos = await mock.fetch(new Request('http://mock.test/v1/pets/1/photos', { headers }));
const pet = await mock.fetch(new Request('http://mock.test/v1/pets/1', { headers }));
process.stdout.write(
  `${JSON.stringify({ photos: { status: photos.status, body: await photos.json() }, pet: pet.status })}\n`,
);

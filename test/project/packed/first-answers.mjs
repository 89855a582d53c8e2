/* global Request */
// Imports one export of the installed kit (the first argument) and makes its first mock answer a list, a create, a
// refused body, an admin request with a date and a preflight: what a test file does first.
const entry = process.argv[2];
const headers = { authorization: 'Bearer dev-key' };
const requests = [
  new Request('http://mock.test/v1/pets?limit=2', { headers }),
  new Request('http://mock.test/v1/pets', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":2}',
  }),
  new Request('http://mock.test/v1/pets', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{"name":"Rex"}',
  }),
  new Request('http://mock.test/__admin/clock', {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{"now":"2030-12-06T10:00:00Z"}',
  }),
  new Request('http://mock.test/v1/pets', {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
  }),
];
const kit = await import(entry);
const mock = kit.createMockHandlers
  ? kit.createMockHandlers().mock
  : kit.petstoreMiddleware
    ? kit.petstoreMiddleware().mock
    : kit.createMock();
const statuses = [];
for (const request of requests) statuses.push((await mock.fetch(request)).status);
process.stdout.write(`${JSON.stringify(statuses)}\n`);

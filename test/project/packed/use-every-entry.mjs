/* global fetch, Request */
// Run inside an empty folder where the packed petstore-kit was installed: uses each export as a user would.
import express from 'express';
import { setupServer } from 'msw/node';
import { createMock, createNodeListener, createServer } from 'petstore-kit';
import { petstoreMiddleware } from 'petstore-kit/express';
import { createMockHandlers } from 'petstore-kit/msw';

const headers = { authorization: 'Bearer dev-key' };
const results = {};

const mock = createMock({ scenario: 'one-of-each-status' });
const viaFetch = await mock.fetch(new Request('http://mock.test/v1/pets', { headers }));
results.fetch = { status: viaFetch.status, pets: (await viaFetch.json()).length };

const app = express();
app.use(petstoreMiddleware({ scenario: 'one-of-each-status' }));
const httpServer = app.listen(0, '127.0.0.1');
await new Promise((resolve) => httpServer.once('listening', resolve));
const viaExpress = await fetch(`http://127.0.0.1:${httpServer.address().port}/v1/pets?limit=2`, { headers });
results.express = { status: viaExpress.status, pets: (await viaExpress.json()).length };
httpServer.close();

const msw = setupServer(
  ...createMockHandlers({ baseUrl: 'https://api.example.test/v1', scenario: 'one-of-each-status' }),
);
msw.listen({ onUnhandledRequest: 'error' });
const viaMsw = await fetch('https://api.example.test/v1/pets/3', { headers });
results.msw = { status: viaMsw.status, body: await viaMsw.text() };
msw.close();

const server = createServer(createNodeListener(createMock()));
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const viaNode = await fetch(`http://127.0.0.1:${server.address().port}/v1/pets/1`, { headers });
results.node = { status: viaNode.status, deprecation: viaNode.headers.get('deprecation') };
server.close();

process.stdout.write(`${JSON.stringify(results)}\n`);

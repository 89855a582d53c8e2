import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type Proxy } from '../../src/proxy/create-proxy.js';
import { startMock, startServer, type RunningServer } from '../support/start-server.js';

// A QA suite with parallel workers, each in its own Petstore-Session, through the proxy in front of the kit's
// mock: every session hands out the same ids (each has its own store), which is right, so the proxy must judge
// each session against its own traffic.

describe('the proxy in front of the kit’s mock, with 50 sessions at once', () => {
  let mock: RunningServer;
  let proxy: Proxy;
  let server: RunningServer;
  beforeAll(async () => {
    mock = await startMock({ keys: ['dev-key'] });
    proxy = createProxy({ upstream: mock.baseUrl, settleMs: 1000 });
    server = await startServer(proxy.listener);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('finds nothing failing when every session creates, reads and lists its own pets', async () => {
    const sessions = Array.from({ length: 50 }, (_, index) => `worker-${index}`);
    const headers = (session: string) => ({
      Authorization: 'Bearer dev-key',
      'Content-Type': 'application/json',
      'Petstore-Session': session,
    });
    const ids = await Promise.all(
      sessions.map(async (session) => {
        const created: number[] = [];
        for (let round = 0; round < 3; round++) {
          const response = await fetch(`${server.baseUrl}/pets`, {
            method: 'POST',
            headers: headers(session),
            body: JSON.stringify({ name: `${session} pet ${round}`, categoryId: round + 1, status: 'pending' }),
          });
          created.push(((await response.json()) as { id: number }).id);
        }
        for (const id of created) {
          expect((await fetch(`${server.baseUrl}/pets/${id}`, { headers: headers(session) })).status).toBe(200);
        }
        const listed = await fetch(`${server.baseUrl}/pets?status=pending&limit=100`, { headers: headers(session) });
        expect(listed.status).toBe(200);
        return created;
      }),
    );
    // Each session's store starts from the same 50 pets, so each hands out 51, 52 and 53.
    expect(new Set(ids.map((list) => list.join(',')))).toEqual(new Set(['51,52,53']));
    const report = proxy.report.toJson();
    expect(report.exchanges).toBe(50 * 7);
    expect(report.deployment.findings.filter((found) => found.level === 'fail')).toEqual([]);
    expect(report.failed).toBe(false);
  });
});

describe('the proxy in front of a deployment that keeps a store per tenant header', () => {
  /** Each tenant (`x-tenant`) has its own pets, numbered from 1, as a multi-tenant deployment would. */
  /** An upstream with a store per tenant, named by `X-Tenant` (or by the key, `by: 'key'`), ids counting from 1. */
  async function startTenantUpstream(by: 'header' | 'key' = 'header'): Promise<RunningServer> {
    const stores = new Map<string, Array<Record<string, unknown>>>();
    return startServer((request, response) => {
      const tenant = String(request.headers[by === 'key' ? 'authorization' : 'x-tenant'] ?? '');
      const pets = stores.get(tenant) ?? [];
      stores.set(tenant, pets);
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const send = (status: number, body: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(body));
        };
        const id = /^\/v1\/pets\/(\d+)$/.exec(request.url ?? '')?.[1];
        if (request.method === 'POST') {
          const pet = { id: pets.length + 1, ...(JSON.parse(text) as object) };
          pets.push(pet);
          send(201, pet);
        } else if (id !== undefined) {
          const pet = pets.find((each) => each.id === Number(id));
          if (pet) send(200, pet);
          else send(404, { code: 'pet_not_found', message: `no pet has id ${id}`, status: 404 });
        } else send(200, pets);
      });
    });
  }

  async function twoTenantsCreate(partitionHeaders?: string[], by: 'header' | 'key' = 'header', shared = false) {
    const upstream = await startTenantUpstream(by);
    const proxy = createProxy({
      upstream: upstream.baseUrl,
      settleMs: 0,
      ...(partitionHeaders ? { partitionHeaders } : {}),
      sharedCredentials: shared,
    });
    const server = await startServer(proxy.listener);
    try {
      for (const tenant of ['a', 'b']) {
        const headers: Record<string, string> =
          by === 'key'
            ? { Authorization: `Bearer key-of-${tenant}`, 'Content-Type': 'application/json' }
            : { Authorization: 'Bearer k', 'Content-Type': 'application/json', 'X-Tenant': tenant };
        const created = await fetch(`${server.baseUrl}/pets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `${tenant}'s cat`, categoryId: 1 }),
        });
        expect(created.status).toBe(201);
        expect((await fetch(`${server.baseUrl}/pets/1`, { headers })).status).toBe(200);
      }
      return proxy.report.toJson().deployment.findings.filter((found) => found.level === 'fail');
    } finally {
      await server.close();
      await upstream.close();
    }
  }

  it('judges each tenant against its own traffic when told the header that partitions the data', async () => {
    expect(await twoTenantsCreate(['X-Tenant'])).toEqual([]);
  });

  it('fails the same ids in two tenants without it: the proxy cannot tell that the data is partitioned', async () => {
    const failed = await twoTenantsCreate();
    expect(failed.map((found) => found.rule)).toContain('created-id-new');
  });

  it('judges each API key against its own traffic by default: a store per key hands out the same ids correctly', async () => {
    expect(await twoTenantsCreate(undefined, 'key')).toEqual([]);
  });

  it('judges every key as one store with --shared-credentials, and then fails the same ids under two keys', async () => {
    const failed = await twoTenantsCreate(undefined, 'key', true);
    expect(failed.map((found) => found.rule)).toContain('created-id-new');
  });
});

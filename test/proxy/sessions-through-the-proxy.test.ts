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

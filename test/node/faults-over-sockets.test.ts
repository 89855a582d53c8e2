import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, jsonAuth, request, startMock, type RunningServer } from '../support/start-server.js';

/** What a real client (undici's fetch) sees: the status, or the code of the error it threw. */
async function seen(url: string, init: RequestInit = {}): Promise<string> {
  try {
    const response = await fetch(url, init);
    await response.text();
    return String(response.status);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; name?: string } }).cause;
    return cause?.code ?? cause?.name ?? (error as Error).name;
  }
}

describe('injected faults, seen from a real client over a socket', () => {
  let mock: RunningServer;
  beforeAll(async () => {
    mock = await startMock({ scenario: 'one-of-each-status' }, { requestTimeout: 2_000, headersTimeout: 1_000 });
  });
  afterAll(() => mock.close());
  const inject = (fault: Record<string, unknown>) =>
    request(`${mock.origin}/__admin/faults`, { method: 'POST', headers: jsonAuth, body: JSON.stringify(fault) });

  it('resets the connection before any byte (connection_reset): fetch fails with ECONNRESET', async () => {
    await inject({ fault: 'connection_reset' });
    expect(await seen(`${mock.baseUrl}/pets`, { headers: auth })).toBe('ECONNRESET');
    expect(await seen(`${mock.baseUrl}/pets`, { headers: auth })).toBe('200');
  });

  it('closes the connection without a status line (empty_response): fetch fails on the socket', async () => {
    await inject({ fault: 'empty_response' });
    expect(await seen(`${mock.baseUrl}/pets`, { headers: auth })).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
  });

  it('sends a status line, then cuts a chunked body short (malformed_response): reading the body fails', async () => {
    await inject({ fault: 'malformed_response' });
    expect(await seen(`${mock.baseUrl}/pets`, { headers: auth })).toMatch(/^(UND_ERR_SOCKET|ECONNRESET|TypeError)$/);
  });

  it('sends nothing until the client gives up (timeout)', async () => {
    await inject({ fault: 'timeout' });
    const started = performance.now();
    expect(await seen(`${mock.baseUrl}/pets`, { headers: auth, signal: AbortSignal.timeout(300) })).toBe(
      'TimeoutError',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('answers an injected status with its Error body over the wire too', async () => {
    await inject({ status: 429, operationId: 'listPets' });
    const response = await request(`${mock.baseUrl}/pets`, { headers: auth });
    expect(response.status).toBe(429);
    expect(response.body).toMatchObject({ code: 'injected_fault', status: 429 });
  });
});

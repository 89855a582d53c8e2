import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { runRunner } from './support/run-runner.js';

const token = 'mock-secret-5a8e13';
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const app = createApp({ keys: [token] });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the project's mock as the deployment under test", { timeout: 90_000 }, () => {
  it('passes every check of the vitest contract suite, in well under 10 s', async () => {
    const result = await runRunner('contract', ['--base-url', baseUrl, '--token', token]);
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped in \d+\.\d s$/m);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(token);
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it('passes every Dredd transaction', async () => {
    const result = await runRunner('dredd', ['--base-url', baseUrl, '--token', token]);
    expect(result.stdout).toMatch(/complete: 8 passing, 0 failing, 0 errors, 0 skipped, 8 total/);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain(token);
  });
});

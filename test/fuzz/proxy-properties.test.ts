import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLogger } from '../../src/core/support/mock-logger.js';
import { createProxy } from '../../src/proxy/create-proxy.js';
import { startServer, type RunningServer } from '../support/start-server.js';
import {
  expectedThroughProxy,
  hostileBehaviours,
  okBody,
  startHostileUpstream,
  type HostileBehaviour,
  type HostileUpstream,
} from './support/hostile-upstream.js';
import { createKeepAliveAgent, sendRawRequest } from './support/send-raw-request.js';

const seed = 20_251_120;
const deadlineMs = 300;
/** What a loaded machine may add to the deadline before the answer arrives. */
const slackMs = 2_000;
const silent: MockLogger = { error() {}, warn() {}, info() {}, debug() {}, isLevelEnabled: () => false };

/**
 * The proxy in front of an upstream that misbehaves at random: every batch of
 * concurrent clients, whatever the upstream does to each, gets an answer
 * within the proxy's deadline: the upstream's own when it is whole, an Error
 * body (`code`, `message`, `status` equal to the HTTP status) for a 502 or 504.
 */
describe(`the proxy in front of randomly hostile upstreams (fast-check seed ${seed})`, () => {
  let upstream: HostileUpstream;
  let proxy: RunningServer;
  const agent = createKeepAliveAgent(8);

  beforeAll(async () => {
    upstream = await startHostileUpstream();
    proxy = await startServer(
      createProxy({ upstream: upstream.url, timeoutMs: deadlineMs, logger: silent, forwarder: { maxPending: 64 } })
        .listener,
    );
  });
  afterAll(async () => {
    agent.destroy();
    await proxy.close();
    await upstream.close();
  });

  const problemsOf = async (behaviour: HostileBehaviour): Promise<string[]> => {
    const response = await sendRawRequest(
      proxy.origin,
      { method: 'GET', target: '/v1/pets?limit=5', headers: { 'x-hostile': behaviour, authorization: 'Bearer k' } },
      { agent, timeoutMs: deadlineMs + slackMs },
    );
    const expected = expectedThroughProxy[behaviour];
    const problems: string[] = [];
    if (response.status !== expected.status) problems.push(`status ${response.status}, not ${expected.status}`);
    if (response.durationMs > deadlineMs + slackMs) problems.push(`answered after ${response.durationMs} ms`);
    if (expected.code) {
      const body = JSON.parse(response.body.toString()) as { code?: unknown; message?: unknown; status?: unknown };
      if (body.code !== expected.code) problems.push(`code ${String(body.code)}, not ${expected.code}`);
      if (body.status !== response.status) problems.push(`Error status ${String(body.status)}`);
      if (typeof body.message !== 'string' || body.message === '') problems.push('no message');
    }
    if (behaviour === 'ok' && response.body.toString() !== okBody) problems.push('the body changed');
    return problems.map((problem) => `${behaviour}: ${problem}`);
  };

  it('answers every client within its deadline, with an Error body for its own 502 and 504', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...hostileBehaviours), { minLength: 1, maxLength: 8 }),
        async (behaviours) => {
          const problems = (await Promise.all(behaviours.map(problemsOf))).flat();
          expect(problems).toEqual([]);
        },
      ),
      { seed, numRuns: 15 },
    );
    // Afterwards nothing is left hanging at the upstream, and the proxy still serves.
    expect(await problemsOf('ok')).toEqual([]);
  }, 60_000);
});

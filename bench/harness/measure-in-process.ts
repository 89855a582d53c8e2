import { setupServer } from 'msw/node';
import { createMockHandlers } from '../../src/msw.js';
import { createMock } from '../../src/index.js';
import type { PlainRequest } from '../../src/core/http/plain-http.js';
import { median } from './measure-load.js';

/** One request of the default session against the same request in a named session (already made), in-process. */
export interface SessionCost {
  defaultMicros: number;
  sessionMicros: number;
}

export interface InProcessRow {
  route: string;
  /** `mock.handle(plainRequest)`: the core alone, as the node adapter calls it. */
  handleMicros: number;
  /** `mock.fetch(new Request(...))`: the core plus building a Request and a Response, and reading it. */
  fetchMicros: number;
  /** `fetch()` answered by the MSW handlers under `setupServer`. */
  mswMicros: number;
}

const key = 'dev-key';
const origin = 'http://petstore.bench';

/** Microseconds per call: the median of `samples` runs of `calls` sequential awaited calls. */
async function microsPerCall(call: () => Promise<unknown>, calls: number, samples = 7): Promise<number> {
  for (let warm = 0; warm < calls; warm++) await call();
  const timings: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const started = performance.now();
    for (let index = 0; index < calls; index++) await call();
    timings.push(((performance.now() - started) * 1000) / calls);
  }
  return median(timings);
}

/** What a request costs in a named session, against the default session, through the core. */
export async function measureSessionCost(quick: boolean): Promise<SessionCost> {
  const calls = quick ? 5_000 : 20_000;
  const mock = createMock();
  const plain: PlainRequest = {
    method: 'GET',
    path: '/v1/pets',
    query: 'limit=20',
    headers: { authorization: `Bearer ${key}` },
  };
  const named: PlainRequest = { ...plain, headers: { ...plain.headers, 'petstore-session': 'bench-worker-1' } };
  const defaults: number[] = [];
  const sessions: number[] = [];
  for (let round = 0; round < 5; round++) {
    defaults.push(await microsPerCall(() => mock.handle(plain), calls, 1));
    sessions.push(await microsPerCall(() => mock.handle(named), calls, 1));
  }
  return { defaultMicros: median(defaults), sessionMicros: median(sessions) };
}

/** The cost of one request through each in-process entry: the core, `mock.fetch`, and MSW. */
export async function measureInProcess(quick: boolean): Promise<InProcessRow[]> {
  const calls = quick ? 2_000 : 10_000;
  const mock = createMock();
  const handlers = createMockHandlers({ baseUrl: `${origin}/v1` });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const rows: InProcessRow[] = [];
  try {
    for (const route of ['/v1/pets?limit=20', '/v1/pets/1']) {
      const [path = '', query = ''] = route.split('?');
      const plain: PlainRequest = { method: 'GET', path, query, headers: { authorization: `Bearer ${key}` } };
      const headers = { authorization: `Bearer ${key}` };
      rows.push({
        route: `GET ${route.replace('/v1', '')}`,
        handleMicros: await microsPerCall(() => mock.handle(plain), calls),
        fetchMicros: await microsPerCall(
          async () => (await mock.fetch(new Request(`${origin}${route}`, { headers }))).arrayBuffer(),
          calls,
        ),
        mswMicros: await microsPerCall(
          async () => (await fetch(`${origin}${route}`, { headers })).arrayBuffer(),
          Math.round(calls / 4),
        ),
      });
    }
  } finally {
    server.close();
  }
  return rows;
}

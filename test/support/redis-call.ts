import type { SharedMock } from '../../src/create-mock.js';

/**
 * A request to a mock on a Redis store through its `fetch`, with the bearer key (and a session, if given), and
 * its answer: the status and the JSON body, if any (an object unless the caller names another shape).
 */
export async function redisCall<Body = Record<string, unknown>>(
  mock: SharedMock,
  key: string,
  path: string,
  init: { method?: string; body?: unknown; session?: string } = {},
): Promise<{ status: number; body: Body | undefined }> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const response = await mock.fetch(
    new Request(`http://mock.test${path}`, {
      method: init.method ?? 'GET',
      headers: init.session ? { ...headers, 'petstore-session': init.session } : headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as Body) };
}

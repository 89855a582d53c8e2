import type { Mock } from '../../src/index.js';

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** The body as text, exactly as sent ('' for none). */
  text: string;
  /** The body parsed as JSON when it is JSON (numbers beyond 2^53 rounded: compare `text` for those). */
  body: T;
}

/** Where requests to an in-process mock are addressed: nothing listens there, the mock answers them itself. */
export const mockOrigin = 'http://petstore.test';

/** A Fetch response with its body read as text, and parsed as JSON when it is JSON. */
export async function readJson<T = unknown>(response: Response): Promise<JsonResponse<T>> {
  const text = await response.text();
  let body: unknown = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, body: body as T };
}

/** Sends `path` (with its query) to the mock through `mock.fetch`, without a port, and reads the answer. */
export async function fetchJson<T = unknown>(
  mock: Pick<Mock, 'fetch'>,
  path: string,
  init: RequestInit = {},
): Promise<JsonResponse<T>> {
  return readJson<T>(await mock.fetch(new Request(`${mockOrigin}${path}`, init)));
}

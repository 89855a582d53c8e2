import { headerValue, type PlainRequest } from '../http/plain-http.js';

const saneId = /^[\w.:-]{1,128}$/;

/** The request's id: a sane `X-Request-Id` it sent, or a new UUID. Echoed on the response, logged, journalled. */
export function assignRequestId(request: PlainRequest): string {
  const sent = headerValue(request, 'x-request-id');
  return sent !== undefined && saneId.test(sent) ? sent : crypto.randomUUID();
}

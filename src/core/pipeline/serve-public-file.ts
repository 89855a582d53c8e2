import type { PlainRequest, PlainResponse } from '../http/plain-http.js';

/** A file served as it is, to anyone: the document, and (in Node) the web pages. It holds no data of a session. */
export interface PublicFile {
  type: string;
  body: Uint8Array;
}

/**
 * Headers every public file carries: no page or file of the kit may be framed
 * (a framed dashboard fills in the default key by itself, and one click on a
 * hidden Reset empties a session), nor sniffed into another type.
 */
export const publicFileHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

/**
 * Answers `GET` (and `HEAD`) of a public file, before any session, route or
 * key: the document (`/openapi.json`, `/openapi.yaml`) lets frontends
 * generate clients from the running mock. Undefined for anything else.
 */
export function servePublicFile(
  files: ReadonlyMap<string, PublicFile>,
  request: PlainRequest,
): PlainResponse | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const file = files.get(request.path);
  if (!file) return undefined;
  const response: PlainResponse = {
    status: 200,
    headers: { 'content-type': file.type, 'content-length': String(file.body.length), ...publicFileHeaders },
  };
  if (request.method === 'GET') response.body = file.body;
  return response;
}

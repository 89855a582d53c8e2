import type { IncomingMessage } from 'node:http';
import { HttpError } from '../core/errors/http-error.js';
import { missingHost } from '../core/pipeline/check-host.js';

/**
 * How many `Host` field lines the request sent: Node keeps only the first in
 * `headers`, so the raw ones are counted (every request: no string is made).
 */
function hostLines(request: IncomingMessage): number {
  const raw = request.rawHeaders;
  let found = 0;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) found++;
  }
  return found;
}

/** How a message quotes what the client sent: short, and quoted. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/**
 * Why the request's `Transfer-Encoding` leaves its body's framing in doubt,
 * or `undefined` when it has none or is `chunked` alone (in any case): an
 * HTTP/1.0 request may not carry one, chunked must come last and once, and
 * no other transfer coding is implemented (`identity` has not been one since
 * RFC 7230). Node's parser reads `identity, chunked` as chunked; a server or
 * proxy in front that reads it otherwise would frame the body differently.
 */
function transferCodingProblem(request: IncomingMessage, field: string): HttpError | undefined {
  if (request.httpVersion === '1.0') {
    return new HttpError(
      'malformed_request',
      'an HTTP/1.0 request carries Transfer-Encoding, which its version does not know: its framing cannot be trusted (RFC 9112 §6.1)',
    );
  }
  // Node joins repeated Transfer-Encoding lines with a comma, as a list is (RFC 9110 §5.3).
  const codings = field
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  if (codings.length === 1 && codings[0] === 'chunked') return undefined;
  const sent = quoted(field);
  if (codings.at(-1) !== 'chunked') {
    return new HttpError(
      'malformed_request',
      `the request's Transfer-Encoding ${sent} does not end with chunked, so its body has no length (RFC 9112 §6.3)`,
    );
  }
  if (codings.indexOf('chunked') !== codings.length - 1) {
    return new HttpError(
      'malformed_request',
      `the request's Transfer-Encoding ${sent} applies chunked more than once (RFC 9112 §7)`,
    );
  }
  const other = codings.find((coding) => coding !== 'chunked') as string;
  return new HttpError(
    'not_implemented',
    `the request's Transfer-Encoding ${sent} holds the transfer coding ${quoted(other)}, which this server does not implement: send the body chunked, or with a Content-Length (RFC 9112 §6.1${other === 'identity' ? '; identity has been no transfer coding since RFC 7230' : ''})`,
  );
}

/** An absolute-form target (`http://host/path`): its scheme, authority, and the origin-form rest. */
const absoluteForm = /^(https?):\/\/([^/?#]*)([^#]*)$/i;

/** An authority as compared with `Host`: lower case, without the scheme's default port. */
function sameAuthority(scheme: string, authority: string): string {
  const lower = authority.toLowerCase();
  const defaultPort = scheme.toLowerCase() === 'https' ? ':443' : ':80';
  return lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
}

/**
 * The request's target as origin-form (`/v1/pets?limit=1`), from an
 * absolute-form one (`http://127.0.0.1:4010/v1/pets?limit=1`), which a server
 * must accept (RFC 9112 §3.2.2); or the problem with it. Its authority must
 * be the `Host` header's (RFC 9112 §3.2: a client sends them the same), so
 * that the Host check, which reads the header, holds for both.
 */
function originForm(url: string, host: string | undefined): string | HttpError {
  const match = absoluteForm.exec(url);
  if (!match) {
    return new HttpError('malformed_request', `the request target ${quoted(url)} is not one this server reads`);
  }
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  if (authority.includes('@')) {
    return new HttpError(
      'malformed_request',
      `the request target ${quoted(url)} carries user information, which an http(s) URI may not (RFC 9110 §4.2.4)`,
    );
  }
  if (host !== undefined && sameAuthority(scheme, authority) !== sameAuthority(scheme, host.trim())) {
    return new HttpError(
      'malformed_request',
      `the request target names the host ${quoted(authority)} and its Host header ${quoted(host)}; they must be the same (RFC 9112 §3.2)`,
    );
  }
  if (rest === '') return '/';
  return rest.startsWith('?') ? `/${rest}` : rest;
}

/**
 * What RFC 9112 asks of a request's head that Node's parser lets through,
 * checked before the request reaches the mock or the proxy: exactly one
 * `Host` in HTTP/1.1 (none is `400 host_required`, two are `400
 * malformed_request`, §3.2), a `Transfer-Encoding` that is `chunked` alone
 * (see `transferCodingProblem`: `400`, or `501 not_implemented` for another
 * coding), and an absolute-form target, which is accepted and rewritten to
 * origin-form in place (`request.url`) once its authority is found to be the
 * `Host` header's. Returns the refusal, or `undefined`; the caller answers it
 * and closes the connection, whose next bytes cannot be trusted.
 */
export function checkRequestHead(request: IncomingMessage): HttpError | undefined {
  const hosts = request.headers.host === undefined ? 0 : hostLines(request);
  if (hosts === 0 && request.httpVersion === '1.1') return missingHost();
  if (hosts > 1) {
    return new HttpError(
      'malformed_request',
      `the request has ${hosts} Host headers; HTTP/1.1 allows exactly one (RFC 9112 §3.2)`,
    );
  }
  const field = request.headers['transfer-encoding'];
  const coding = field === undefined ? undefined : transferCodingProblem(request, field);
  if (coding) return coding;
  const url = request.url ?? '/';
  // Origin-form (`/v1/pets`), as nearly every request; asterisk-form (`OPTIONS *`) is the core's to answer.
  if (url.charCodeAt(0) === 0x2f || !/^https?:\/\//i.test(url)) return undefined;
  const target = originForm(url, request.headers.host);
  if (target instanceof HttpError) return target;
  request.url = target;
  return undefined;
}

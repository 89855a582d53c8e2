import { BoundedMaps } from '../support/bounded-map.js';
import { HttpError } from '../errors/http-error.js';
import type { ValidRequest } from '../types/valid-request.js';
import type { PlainRequest } from '../http/plain-http.js';
import {
  type Int64,
  int64Max,
  int64Min,
  normaliseInt64,
  NumberLiteral,
  parseExactJson,
  stringifyJson,
} from '../json/exact-json.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import { validateRequest } from '../openapi/validate-request.js';
import { type Finding, finding } from './finding.js';

/**
 * How a request stands by the document, which decides what its answer may be:
 *
 * - `valid`: the document names its answers; only those may come back;
 * - `lenient`: it is invalid only because an integer is written `7.0` or
 *   `1e0` (OpenAPI 3.0 says it is not an integer; later JSON Schema says it
 *   is): accepting it is lenient, refusing it is right;
 * - `invalid`: it breaks the document where the document names the refusal
 *   (createPet's body: 400);
 * - `open`: it breaks the document where the document names no refusal (an
 *   out-of-range `limit`, an unknown `status` filter, a `petId` that is not an
 *   int64): whatever comes back is observed.
 */
export type Validity = 'valid' | 'lenient' | 'invalid' | 'open';

/**
 * What the request carried for authentication: nothing, something that is not
 * a bearer credential, or a bearer key (whose validity only the deployment
 * knows, unless the caller knows it: `valid` or `wrong`).
 */
export type Credential = 'none' | 'malformed' | 'bearer' | 'valid' | 'wrong';

export interface ClassifiedRequest {
  operation: CompiledOperation;
  validity: Validity;
  credential: Credential;
  /** The path parameters as sent (percent-decoded text). */
  pathParams: Record<string, string>;
  /** The authentication scheme as written (`Bearer`, `bearer`, `Basic`), if any. */
  scheme: string | undefined;
  /** The request is a conditional GET (If-None-Match or If-Modified-Since). */
  conditional: boolean;
  /** Parameters typed and the body parsed exactly, when it is valid (or lenient, with its integers read). */
  valid: ValidRequest | undefined;
  /** What breaks the document in it, as request-side findings. */
  findings: Finding[];
  /** The first problem, as the mock refuses it (400 or 415 with an Error body). */
  problem: HttpError | undefined;
}

/** What the classification works on: the request as sent, its route's path parameters, its body decoded. */
export interface RequestToClassify {
  operation: CompiledOperation;
  pathParams: Record<string, string>;
  query: string;
  headers: PlainRequest['headers'];
  /** The body bytes with any Content-Encoding undone; undefined for none. */
  body: Uint8Array | undefined;
}

const decimalInteger = /^(-?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The int64 a number literal denotes when it is whole (`7.0`, `1e0`, `70e-1`),
 * read exactly; undefined when it has a fraction or lies outside int64.
 */
export function wholeValueOf(text: string): Int64 | undefined {
  const match = decimalInteger.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length;
  if (shift > 19) return undefined;
  let value = BigInt(`${whole}${fraction}`);
  if (shift >= 0) value *= 10n ** BigInt(shift);
  else {
    const divisor = 10n ** BigInt(-shift);
    if (value % divisor !== 0n) return undefined;
    value /= divisor;
  }
  if (sign === '-') value = -value;
  return value < int64Min || value > int64Max ? undefined : normaliseInt64(value);
}

/** The value with every whole decimal literal read as the integer it denotes; `changed` when there was one. */
function readWholeLiterals(value: unknown): { value: unknown; changed: boolean } {
  const seen = { changed: false };
  const walk = (item: unknown): unknown => {
    if (item instanceof NumberLiteral) {
      const whole = item.isInteger ? undefined : wholeValueOf(item.text);
      if (whole === undefined) return item;
      seen.changed = true;
      return whole;
    }
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === 'object' && item !== null) {
      return Object.fromEntries(Object.entries(item).map(([key, child]) => [key, walk(child)]));
    }
    return item;
  };
  return { value: walk(value), changed: seen.changed };
}

/** A request whose whole-number texts (`7.0`, `1e0`) in parameters and body are written as integers. */
function asWholeNumbers(request: RequestToClassify): RequestToClassify | undefined {
  let changed = false;
  const whole = (text: string): string => {
    const value = /^-?\d+$/.test(text) ? undefined : wholeValueOf(text);
    if (value === undefined) return text;
    changed = true;
    return String(value);
  };
  const pathParams = Object.fromEntries(Object.entries(request.pathParams).map(([name, text]) => [name, whole(text)]));
  const query = new URLSearchParams(request.query);
  for (const [name, text] of [...query]) query.set(name, whole(text));
  let body = request.body;
  if (body !== undefined && body.length > 0) {
    try {
      const read = readWholeLiterals(parseExactJson(new TextDecoder('utf-8', { fatal: true }).decode(body)));
      if (read.changed) {
        changed = true;
        body = new TextEncoder().encode(stringifyJson(read.value));
      }
    } catch {
      // Not JSON: nothing to read leniently.
    }
  }
  return changed ? { ...request, pathParams, query: query.toString(), body } : undefined;
}

/** What an `Authorization` header says of itself: the scheme as written, and what the credential is. */
interface Authorization {
  scheme: string | undefined;
  credential: Credential;
}

const noAuthorization: Authorization = Object.freeze({ scheme: undefined, credential: 'none' });

/** The header read last, and what it said: a client sends the same one with every request. */
let lastHeader: string | undefined;
let lastAuthorization: Authorization = noAuthorization;

/** The authentication scheme as written, and what the credential is; a header the same as the last is not read again. */
function authorizationOf(header: string | undefined): Authorization {
  if (header === undefined) return noAuthorization;
  if (header !== lastHeader) {
    lastAuthorization = readAuthorization(header);
    lastHeader = header;
  }
  return lastAuthorization;
}

function readAuthorization(header: string): Authorization {
  const text = header.trim();
  const space = text.search(/[ \t]/);
  const scheme = space === -1 ? text : text.slice(0, space);
  const rest = space === -1 ? '' : text.slice(space + 1).trim();
  const bearer = scheme.toLowerCase() === 'bearer' && rest !== '' && !/\s/.test(rest);
  return Object.freeze({ scheme, credential: bearer ? 'bearer' : 'malformed' });
}

/** The request-side findings of a refused request: parameters, or body (media type and encoding included). */
export function requestFindings(error: HttpError): Finding[] {
  const rule = error.code === 'invalid_parameter' ? 'request-parameters' : 'request-body';
  return [finding(rule, error.message, error.details)];
}

function documentsRefusal(operation: CompiledOperation): boolean {
  return operation.responses.has('400');
}

/**
 * Classifies a request by the document (see `Validity`), with the same
 * validation the mock refuses requests with, so that the mock, the contract
 * suite and the proxy agree on what a request is.
 */
export function classifyRequest(request: RequestToClassify): ClassifiedRequest {
  // A request with a body is classified anew each time.
  if (request.body !== undefined && request.body.length > 0) return classifyAnew(request);
  const memo = memos.of(request.operation);
  const recent = memo.recent;
  if (recent !== undefined && sameAsRecent(recent, request)) return recent.classified;
  const parts = partsOf(request);
  const key = memoKey(parts);
  const known = key === undefined ? undefined : memo.get(key);
  if (known) {
    memo.recent = { ...parts, classified: known };
    return known;
  }
  const classified = classifyAnew(request);
  if (key === undefined || classified.validity !== 'valid') return classified;
  const kept = frozen(classified);
  memo.set(key, kept);
  memo.recent = { ...parts, classified: kept };
  return kept;
}

/** What the classification of a request without a body reads of it: its memo key is made of these. */
interface RequestParts {
  query: string;
  authorization: string | string[] | undefined;
  conditional: boolean;
  pathParams: Record<string, string>;
  /** The values of the operation's header parameters, in the document's order. */
  headerValues: Array<string | string[] | undefined>;
}

/** The request classified last, by its parts, for `sameAsRecent`. */
interface RecentRequest extends RequestParts {
  classified: ClassifiedRequest;
}

function conditionalOf(headers: PlainRequest['headers']): boolean {
  return headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
}

function partsOf(request: RequestToClassify): RequestParts {
  const headerValues: RequestParts['headerValues'] = [];
  for (const parameter of request.operation.parameters) {
    if (parameter.in === 'header') headerValues.push(request.headers[parameter.name]);
  }
  return {
    query: request.query,
    authorization: request.headers.authorization,
    conditional: conditionalOf(request.headers),
    pathParams: request.pathParams,
    headerValues,
  };
}

/**
 * Whether a request reads as the recent one: `partsOf` compared part by part
 * on the request itself, so that a repeated request costs no key (change both together).
 */
function sameAsRecent(recent: RecentRequest, request: RequestToClassify): boolean {
  const { headers } = request;
  if (recent.query !== request.query || recent.authorization !== headers.authorization) return false;
  if (recent.conditional !== conditionalOf(headers)) return false;
  // A route's parameters are one frozen object per path (the route memo's), so mostly the same object.
  if (recent.pathParams !== request.pathParams) {
    for (const name in request.pathParams) if (recent.pathParams[name] !== request.pathParams[name]) return false;
  }
  let at = 0;
  for (const parameter of request.operation.parameters) {
    if (parameter.in === 'header' && recent.headerValues[at++] !== headers[parameter.name]) return false;
  }
  return true;
}

/**
 * Valid requests without a body, classified, by operation and by what the
 * classification reads of them (path parameters, query, Authorization, the
 * conditional headers, header parameters): clients repeat the same reads,
 * and the proxy classifies every one it passes on. At most 256 an
 * operation, the oldest forgotten first; each is frozen, so that no caller
 * can change what the next one is handed.
 */
const memos = new BoundedMaps<CompiledOperation, string, ClassifiedRequest, RecentRequest>(256);
const maxMemoKey = 2048;

/** A header's value as a memo key part, told apart from any other (absent, or sent several times). */
function keyPart(value: string | string[] | undefined): string {
  return value === undefined ? '\u0001' : Array.isArray(value) ? `\u0002${value.join('\u0002')}` : value;
}

function memoKey(parts: RequestParts): string | undefined {
  let key = `${parts.query}\u0000${keyPart(parts.authorization)}\u0000${parts.conditional ? 1 : 0}`;
  for (const name in parts.pathParams) key += `\u0000${name}=${parts.pathParams[name]}`;
  for (const value of parts.headerValues) key += `\u0000${keyPart(value)}`;
  return key.length > maxMemoKey ? undefined : key;
}

/** Freezes what a classification holds (the operation is the document's, shared and never changed). */
function frozen(classified: ClassifiedRequest): ClassifiedRequest {
  Object.freeze(classified.findings);
  Object.freeze(classified.pathParams);
  const { valid } = classified;
  if (valid) {
    for (const values of [valid.path, valid.query, valid.header]) {
      for (const value of Object.values(values)) if (typeof value === 'object' && value !== null) Object.freeze(value);
      Object.freeze(values);
    }
    Object.freeze(valid);
  }
  return Object.freeze(classified);
}

function classifyAnew(request: RequestToClassify): ClassifiedRequest {
  const { operation, headers } = request;
  const conditional =
    operation.method === 'GET' &&
    (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined);
  const header = headers.authorization;
  const { scheme, credential } = authorizationOf(Array.isArray(header) ? header.join(', ') : header);
  // One shape for every classification, so that the mock's hot path stays monomorphic.
  const classified: ClassifiedRequest = {
    operation,
    pathParams: request.pathParams,
    credential,
    scheme,
    conditional,
    validity: 'valid',
    valid: undefined,
    findings: [],
    problem: undefined,
  };
  try {
    classified.valid = validateRequest(operation, {
      pathParams: request.pathParams,
      search: request.query,
      headers,
      body: request.body,
    });
    return classified;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    classified.findings = requestFindings(error);
    classified.problem = error;
  }
  const { problem } = classified;
  const whole = asWholeNumbers(request);
  if (whole) {
    try {
      classified.valid = validateRequest(operation, {
        pathParams: whole.pathParams,
        search: whole.query,
        headers: whole.headers,
        body: whole.body,
      });
      classified.validity = 'lenient';
      return classified;
    } catch {
      // Invalid for more than how its integers are written.
    }
  }
  const refused = problem?.code !== 'invalid_parameter' && documentsRefusal(operation);
  classified.validity = refused ? 'invalid' : 'open';
  return classified;
}

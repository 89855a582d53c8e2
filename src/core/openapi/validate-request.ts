import { fromAjvErrors, summariseDetails } from '../errors/from-ajv-errors.js';
import { HttpError, type ErrorDetail } from '../errors/http-error.js';
import { coerceParameter } from './coerce-parameter.js';
import type { ValidRequest } from '../types/valid-request.js';
import { isJsonMediaType, parseMediaType } from '../http/media-type.js';
import type { CompiledOperation, ParameterLocation } from './compile-document.js';
import { parseJsonBody } from './parse-json-body.js';

/** What the request validation works on: the route's path parameters, the query text, headers and body bytes. */
export interface RawRequest {
  pathParams: Record<string, string>;
  /** The query string, without the `?`. */
  search: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body bytes (Content-Encoding undone), or undefined when there was none. */
  body: Uint8Array | undefined;
}

/** No query parameters: what a request without a query reads them from (nothing is built for it). */
const noQuery: ReadonlyMap<string, string[]> = new Map();

/** The query's parameters by name, each with every value sent, in order. */
function queryValues(search: string): Map<string, string[]> {
  const query = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(search)) {
    const list = query.get(name);
    if (list) list.push(value);
    else query.set(name, [value]);
  }
  return query;
}

function parameterValues(
  operation: CompiledOperation,
  raw: RawRequest,
): { values: Record<ParameterLocation, Record<string, unknown>>; details: ErrorDetail[] } {
  // An empty query has no parameters: a request without one builds no URLSearchParams and no map.
  const query = raw.search === '' ? noQuery : queryValues(raw.search);
  let unread = query.size;
  const values: Record<ParameterLocation, Record<string, unknown>> = { path: {}, query: {}, header: {}, cookie: {} };
  const details: ErrorDetail[] = [];
  for (const parameter of operation.parameters) {
    let texts: string[] | undefined;
    if (parameter.in === 'path') {
      const text = raw.pathParams[parameter.name];
      texts = text === undefined ? undefined : [text];
    } else if (parameter.in === 'query') {
      texts = query.get(parameter.name);
      if (texts) unread--;
    } else if (parameter.in === 'header') {
      const header = raw.headers[parameter.name];
      texts = header === undefined ? undefined : Array.isArray(header) ? header : [header];
    }
    if (texts === undefined) {
      if (parameter.shape.default !== undefined) values[parameter.in][parameter.name] = parameter.shape.default;
      continue;
    }
    const coerced = coerceParameter(parameter, texts);
    if (coerced.ok) values[parameter.in][parameter.name] = coerced.value;
    else details.push({ location: parameter.in, field: parameter.name, message: coerced.problem, keyword: 'type' });
  }
  if (unread > 0) undefinedQueryParameters(operation, query, details);
  return { values, details };
}

/**
 * A query parameter the operation does not define is refused, not ignored: a
 * client sending `page=2` must learn that nothing here pages that way.
 */
function undefinedQueryParameters(
  operation: CompiledOperation,
  query: ReadonlyMap<string, string[]>,
  details: ErrorDetail[],
): void {
  const defined = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  for (const name of query.keys()) {
    if (defined.includes(name)) continue;
    details.push({
      location: 'query',
      field: name,
      message: `is not a parameter of ${operation.operationId}${defined.length ? ` (parameters: ${defined.join(', ')})` : ''}`,
      keyword: 'additionalProperties',
    });
  }
}

function readBody(operation: CompiledOperation, raw: RawRequest): unknown {
  const hasBody = raw.body !== undefined && raw.body.length > 0;
  const spec = operation.requestBody;
  if (!spec) {
    if (hasBody) throw new HttpError('unexpected_body', `${operation.operationId} takes no request body`);
    return undefined;
  }
  if (!hasBody) {
    if (spec.required) {
      throw new HttpError(
        'body_required',
        `${operation.operationId} needs a request body (${spec.mediaTypes.join(', ')})`,
      );
    }
    return undefined;
  }
  const contentType = raw.headers['content-type'];
  const sent = typeof contentType === 'string' ? contentType : undefined;
  const { essence, parameters } = parseMediaType(sent);
  const accepted = spec.mediaTypes.find(
    (type) => type === essence || type === '*/*' || (type.endsWith('/*') && essence.startsWith(type.slice(0, -1))),
  );
  if (!sent || !accepted) {
    throw new HttpError(
      'unsupported_media_type',
      `the body must be sent as ${spec.mediaTypes.join(' or ')}${sent ? `, not ${essence}` : ' (no Content-Type was sent)'}`,
    );
  }
  const charset = parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError('unsupported_media_type', `the body must be UTF-8, not ${charset}`);
  }
  if (!isJsonMediaType(essence)) return new TextDecoder().decode(raw.body);
  const body = parseJsonBody(raw.body as Uint8Array);
  const validate = spec.validators.get(accepted);
  if (validate && !validate(body)) {
    const details = fromAjvErrors(validate.errors ?? [], 'body');
    throw new HttpError('invalid_body', summariseDetails(details), { details });
  }
  return body;
}

/**
 * Checks a request against its operation: path, query and header parameters
 * (typed strictly, defaults applied, unknown query parameters refused), then
 * the body (media type, JSON syntax, exact numbers, schema). Every problem is a
 * 400 (415 for a media type) whose message names the field and whose
 * `details` list every problem found.
 */
export function validateRequest(operation: CompiledOperation, raw: RawRequest): ValidRequest {
  const { values, details } = parameterValues(operation, raw);
  for (const location of ['path', 'query', 'header'] as const) {
    if (holdsEmpty(operation, location, values[location])) continue;
    const validate = operation.parameterValidators[location];
    const failed = details.some((detail) => detail.location === location);
    if (!failed && !validate(values[location])) details.push(...fromAjvErrors(validate.errors ?? [], location));
  }
  if (details.length > 0) throw new HttpError('invalid_parameter', summariseDetails(details), { details });
  // A request without a body, to an operation that takes none, has no body to read.
  const body = raw.body === undefined && !operation.requestBody ? undefined : readBody(operation, raw);
  return { path: values.path, query: values.query, header: values.header, body };
}

/**
 * Whether a location's values are none and it requires none: its schema (an object of the location's
 * parameters, those required, no others) holds for the empty object whatever the parameters' schemas
 * say, so there is nothing for its validator to check (most operations have no path or header
 * parameters), and a process's first request does not compile that validator to learn so.
 */
function holdsEmpty(operation: CompiledOperation, location: ParameterLocation, values: object): boolean {
  for (const name in values) if (Object.hasOwn(values, name)) return false;
  for (const parameter of operation.parameters) if (parameter.in === location && parameter.required) return false;
  return true;
}

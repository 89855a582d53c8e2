import { createAdminDocument } from '../../../src/core/admin/admin-document.js';
import { adminBasePath, defaultBasePath as apiBasePath } from '../../../src/core/create-mock-core.js';
import { parseExactJson, stringifyJson, toInt64 } from '../../../src/core/json/exact-json.js';
import { judgeResponseValue } from '../../../src/core/oracle/judge-response.js';
import {
  compileDocument,
  type CompiledDocument,
  type CompiledOperation,
} from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import type { RawResponse } from './send-raw-request.js';

/** Whether the document asks for a key on this operation (its `security`, or the document's; `[]` opens it). */
function needsKey(api: Api, operation: CompiledOperation): boolean {
  return (operation.definition.security ?? api.compiled.document.security ?? []).length > 0;
}

/** Files the mock serves to anyone, with their media type. */
const publicFiles: Record<string, string> = {
  '/openapi.json': 'application/json',
  '/openapi.yaml': 'application/yaml',
};

/** What the checker knows of the request that was sent. */
export interface SentRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface ExchangeCheckerOptions {
  /** The one accepted bearer key. */
  key: string;
  /** The mock's body limit in bytes. */
  bodyLimit: number;
}

/** Returns every property one request/response exchange breaks; an empty list means it holds them all. */
export type ExchangeChecker = (request: SentRequest, response: RawResponse) => string[];

interface Api {
  base: string;
  compiled: CompiledDocument;
}

/** The operation at a path, matched independently of the mock: segments percent-decoded, `{param}` non-empty. */
function findOperation(
  api: Api,
  method: string,
  pathname: string,
): { operation: CompiledOperation | undefined; params: Record<string, string>; decodable: boolean } {
  let segments: string[];
  try {
    segments = pathname.slice(api.base.length).split('/').slice(1).map(decodeURIComponent);
  } catch {
    return { operation: undefined, params: {}, decodable: false };
  }
  for (const operation of api.compiled.operations) {
    if (operation.method !== method || operation.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = operation.segments.every((expected, index) => {
      const actual = segments[index] ?? '';
      if (typeof expected === 'string') return expected === actual;
      params[expected.param] = actual;
      return actual !== '';
    });
    if (matches) return { operation, params, decodable: true };
  }
  return { operation: undefined, params: {}, decodable: true };
}

/**
 * Whether the mock must accept this Authorization header, decided without the
 * mock's code: the value as the server reads it (bytes as latin1, surrounding
 * whitespace dropped) is the scheme `Bearer` in any case, spaces or tabs, and
 * exactly the key.
 */
export function isAcceptedAuthorization(value: string | undefined, key: string): boolean {
  if (value === undefined) return false;
  const seen = Buffer.from(value, 'utf8').toString('latin1').trim();
  if (seen.slice(0, 6).toLowerCase() !== 'bearer') return false;
  const rest = seen.slice(6);
  return /^[ \t]+/.test(rest) && rest.replace(/^[ \t]+/, '') === key;
}

function excerpt(body: Buffer): string {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseExactJson(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** Properties of a 2xx beyond its schema: the pet asked for, the filter and limit applied, the create echoed. */
function checkSemantics(
  operation: CompiledOperation,
  params: Record<string, string>,
  request: SentRequest,
  body: unknown,
): string[] {
  const problems: string[] = [];
  const search = new URLSearchParams(request.target.split('?').slice(1).join('?'));
  if (operation.operationId === 'getPet') {
    const asked = toInt64(params.petId?.replace(/^(-?)0+(?=\d)/, '$1') ?? '');
    const id = (body as { id?: unknown }).id;
    if (id !== asked) problems.push(`getPet ${params.petId} answered the pet with id ${String(id)}`);
  }
  if (operation.operationId === 'listPets' && Array.isArray(body)) {
    const limits = search.getAll('limit');
    const limit = limits.length === 1 && /^\d+$/.test(limits[0] ?? '') ? Number(limits[0]) : 20;
    if (body.length > limit) problems.push(`listPets answered ${body.length} pets for a limit of ${limit}`);
    const statuses = search.getAll('status');
    const wrong = body.filter((pet: { status?: unknown }) => statuses.length === 1 && pet.status !== statuses[0]);
    if (wrong.length > 0) problems.push(`listPets?status=${statuses[0]} answered a pet with status ${wrong[0].status}`);
    const ids = body.map((pet: { id?: unknown }) => pet.id);
    if (new Set(ids).size !== ids.length) problems.push(`listPets answered the same id twice: ${ids.join(', ')}`);
  }
  if (operation.operationId === 'createPet' && request.body) {
    const sent = parseJson(request.body);
    const created = body as Record<string, unknown>;
    if (sent.ok && typeof sent.value === 'object' && sent.value !== null) {
      const fields = sent.value as Record<string, unknown>;
      for (const field of ['name', 'categoryId', 'status']) {
        if (Object.hasOwn(fields, field) && fields[field] !== created[field]) {
          problems.push(
            `createPet echoed ${field} ${stringifyJson(created[field])}, not ${stringifyJson(fields[field])}`,
          );
        }
      }
    }
  }
  return problems;
}

/**
 * The properties every exchange with the mock must have, checked against the
 * document itself (compiled by the same code the contract suite uses):
 * - no 5xx: neither document documents one, so even `Prefer` cannot ask for it;
 * - every status ≥ 400 has `Content-Type: application/json` and a valid Error
 *   body whose `status` is the HTTP status;
 * - every 2xx answers an operation of the document and validates against it,
 *   with the pet, filter, limit or create it was asked for;
 * - a body over the limit sent to the API is a 413, before anything else;
 * - an API operation without the key is a 401, and nothing is served without it.
 */
export function createExchangeChecker(options: ExchangeCheckerOptions): ExchangeChecker {
  const compiled = compileDocument(loadDocument(defaultDocumentPath), defaultDocumentPath);
  const apis: Api[] = [
    { base: apiBasePath, compiled },
    {
      base: adminBasePath,
      compiled: compileDocument(
        createAdminDocument(compiled.document.components?.schemas ?? {}, ['pets']),
        'admin API',
      ),
    },
  ];

  return function checkExchange(request, response) {
    const problems: string[] = [];
    const { status } = response;
    const contentType = response.headers['content-type'];
    const pathname = request.target.split('?')[0] ?? '';
    const api = apis.find(({ base }) => pathname === base || pathname.startsWith(`${base}/`));
    const found = api ? findOperation(api, request.method, pathname) : undefined;
    const authorized = isAcceptedAuthorization(request.headers.authorization, options.key);
    const tooLarge = (request.body?.length ?? 0) > options.bodyLimit;
    // An unsupported Content-Encoding is refused (415) while the body is read, before its size is known.
    const refusedEncoding = status === 415 && !/^\s*(identity)?\s*$/i.test(request.headers['content-encoding'] ?? '');
    const hasBody = request.method !== 'HEAD';
    const parsed = parseJson(response.body);

    if (status >= 500) problems.push(`answered ${status} (no 5xx is documented): ${excerpt(response.body)}`);
    if (status >= 400) {
      if (contentType !== 'application/json') {
        problems.push(`a ${status} has Content-Type ${JSON.stringify(contentType)}, not application/json`);
      } else if (hasBody) {
        if (!parsed.ok) problems.push(`a ${status} has a body that is not JSON: ${excerpt(response.body)}`);
        else if (!compiled.validateError(parsed.value)) {
          problems.push(`a ${status} has a body that is not an Error: ${excerpt(response.body)}`);
        } else if ((parsed.value as { status: unknown }).status !== status) {
          problems.push(`a ${status} has an Error body with status ${(parsed.value as { status: unknown }).status}`);
        }
      }
    }
    if (status >= 200 && status < 300) {
      if (request.method === 'OPTIONS') {
        if (status !== 204 || response.body.length > 0) problems.push(`a preflight answered ${status} with a body`);
      } else if (publicFiles[pathname] && (request.method === 'GET' || request.method === 'HEAD')) {
        // The document, served to anyone: it must be the type it says, and whole.
        if (contentType !== publicFiles[pathname]) {
          problems.push(`${pathname} has Content-Type ${JSON.stringify(contentType)}, not ${publicFiles[pathname]}`);
        }
        if (request.method === 'GET' && response.body.length === 0) problems.push(`${pathname} came back empty`);
      } else if (!api || !found?.operation) {
        problems.push(`answered ${status} to ${request.method} ${pathname}, which is no operation of the documents`);
      } else {
        if (contentType !== 'application/json') {
          problems.push(`a ${status} has Content-Type ${JSON.stringify(contentType)}, not application/json`);
        }
        const body = parsed.ok ? parsed.value : undefined;
        const violations = judgeResponseValue(api.compiled, found.operation, status, 'application/json', body, {
          allowUndocumentedStatus: true,
        }).flatMap(
          (violation) => violation.details ?? [{ location: 'response', field: '', message: violation.message }],
        );
        for (const violation of violations) {
          problems.push(
            `${found.operation.operationId} ${status} breaks the document at '${violation.field}': ${violation.message}`,
          );
        }
        // `Prefer: code=…` answers the documented example, which is not about this request.
        const example = response.headers['preference-applied'] !== undefined;
        if (violations.length === 0 && !example) {
          problems.push(...checkSemantics(found.operation, found.params, request, body));
        }
        if (!authorized && needsKey(api, found.operation)) {
          problems.push(
            `${found.operation.operationId} answered ${status} to Authorization ${JSON.stringify(request.headers.authorization)}, which is not the key`,
          );
        }
      }
    }
    if (api && request.method !== 'OPTIONS' && tooLarge && status !== 413 && !refusedEncoding) {
      problems.push(
        `a body of ${request.body?.length} bytes (limit ${options.bodyLimit}) was answered ${status}, not 413`,
      );
    }
    if (
      api &&
      found?.operation &&
      needsKey(api, found.operation) &&
      !tooLarge &&
      !authorized &&
      status !== 401 &&
      !refusedEncoding
    ) {
      problems.push(
        `${found.operation.operationId} answered ${status}, not 401, to Authorization ${JSON.stringify(request.headers.authorization)}`,
      );
    }
    return problems;
  };
}

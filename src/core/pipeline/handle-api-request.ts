import { setTimeout as delay } from 'node:timers/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { toErrorResult } from '../errors/to-error-result.js';
import type { HandlerResult, HandlerTable } from '../handlers/handler-types.js';
import type { CompiledDocument, CompiledOperation } from '../openapi/compile-document.js';
import type { Authenticator } from './authenticate.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { matchRoute } from './match-route.js';
import type { BodyReader } from './read-body.js';
import { readPreference } from './read-preference.js';
import { runHandler, type FallbackMocker } from './run-handler.js';
import { ResponseCache, serialise, type CachedResponse } from './response-cache.js';
import { sendResponse } from './send-response.js';
import { validateRequest } from './validate-request.js';
import { validateResponse } from './validate-response.js';

export interface ApiRequestHandlerOptions<Context> {
  compiled: CompiledDocument;
  handlers: HandlerTable<Context>;
  context: Context;
  /** Where the document's paths are served, e.g. `/v1`. */
  basePath: string;
  readBody: BodyReader;
  authenticate: Authenticator;
  fallback?: FallbackMocker;
  /** Milliseconds to wait before answering (simulated network latency). */
  latency?: () => number;
  logger: Logger;
}

/**
 * The request pipeline, in one readable order: read the body (size limit) →
 * latency → route match (404/405) → authenticate (401) → `Prefer` →
 * validate the request (400/415) → handler → validate the response (500) →
 * send. Whatever a stage throws becomes an Error body in `toErrorResult` and
 * goes through the same response validation and send.
 */
export function createApiRequestHandler<Context>(options: ApiRequestHandlerOptions<Context>) {
  const { compiled, basePath, logger } = options;
  const headersByOperation = new Map<CompiledOperation, Array<[string, string]>>(
    compiled.operations.map((operation) => [
      operation,
      Object.entries(deprecationHeaders(compiled, operation, basePath)),
    ]),
  );
  const cache = new ResponseCache();

  /** `pathname` and `search` are relative to the base path, e.g. `/pets` and `limit=5`. */
  return async function handleApiRequest(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    search: string,
  ): Promise<void> {
    let operation: CompiledOperation | undefined;
    let result: HandlerResult;
    let cached: CachedResponse | undefined;
    try {
      // An over-size body is refused at once, before anything else; any other problem reading the body
      // waits until the client is authenticated, so that a client without a key learns nothing more.
      const read = await options.readBody(req, res).then(
        (body) => ({ body, error: undefined }),
        (error: unknown) => {
          // 413 from either side of the reader: its own Content-Length check, or body-parser's count.
          if ((error as { status?: unknown }).status === 413) throw error;
          return { body: undefined, error };
        },
      );
      const latency = options.latency?.() ?? 0;
      if (latency > 0) await delay(latency);
      const match = matchRoute(compiled, req.method ?? '', pathname);
      operation = match.operation;
      options.authenticate(req.headers.authorization);
      if (read.error !== undefined) throw read.error;
      const { body } = read;
      const prefer = req.headers.prefer;
      const preference = readPreference(operation, Array.isArray(prefer) ? prefer.join(', ') : prefer);
      const request = validateRequest(operation, { pathParams: match.pathParams, search, headers: req.headers, body });
      result = await runHandler({
        operation,
        request,
        preference,
        handlers: options.handlers,
        context: options.context,
        fallback: options.fallback,
      });
      if (preference.status !== undefined) {
        result = { ...result, headers: { ...result.headers, 'Preference-Applied': `code=${preference.status}` } };
      }
      if (result.cacheKey !== undefined) cached = cache.get(result.cacheKey);
    } catch (error) {
      result = toErrorResult(error, logger);
    }
    if (!cached) {
      const checked = validateResponse(compiled, operation, result, logger);
      // Only a response that passed validation unchanged is remembered under its key.
      cached =
        checked === result && result.cacheKey !== undefined
          ? cache.remember(result.cacheKey, result)
          : serialise(checked);
    }
    sendResponse(res, cached, operation ? (headersByOperation.get(operation) ?? []) : []);
  };
}

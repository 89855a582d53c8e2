import type { IncomingMessage, ServerResponse } from 'node:http';
import { adminBasePath, defaultBasePath } from '../core/create-mock-core.js';
import { HttpError } from '../core/errors/http-error.js';
import type { Mock } from '../create-mock.js';
import { createNodeMock, type NodeMockOptions } from '../node/create-node-mock.js';
import { toPlainRequest, writeNodeResponse } from '../node/node-listener.js';
import { loadWebPages } from '../node/web-pages.js';

export interface MiddlewareOptions extends NodeMockOptions {
  /** A mock to serve (its store is shared with whoever else holds it); by default one is created from the options. */
  mock?: Mock;
}

/** Express's `req.body`, where a body parser mounted earlier put one. */
type ParsedRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/** Express/connect middleware that serves the mock, with the mock it serves. */
export type PetstoreMiddleware = ((
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void) & {
  mock: Mock;
};

/** The document, as the mock serves it to anyone: frontends generate their clients from it. */
const documentPaths = new Set(['/openapi.json', '/openapi.yaml']);

/** `dev-key` when it is the only key the mock accepts: the one key the pages may fill in. */
function defaultKeyOf(keys: readonly string[]): string | undefined {
  return keys.length === 1 && keys[0] === 'dev-key' ? 'dev-key' : undefined;
}

function isUnder(path: string, base: string): boolean {
  return (
    path.startsWith(base) && (path.length === base.length || path[base.length] === '/' || path[base.length] === '?')
  );
}

/**
 * The mock as Express/connect middleware: it answers under `/v1` (or the
 * `basePath` option) and `/__admin` (the admin API, the dashboard at
 * `/__admin/ui`, the API reference at `/__admin/docs`), and the document at
 * `/openapi.json` and `/openapi.yaml`, and calls `next()` for anything else, so
 * a team mounts it inside its own Express app, Vite dev server
 * (`server.middlewares.use(...)` in `configureServer`) or webpack-dev-server
 * (`setupMiddlewares`). Mount it before any body parser: the mock reads the
 * body bytes itself, so that numbers reach it exactly. A body a parser has
 * already turned into an object cannot be read exactly again; such a request
 * gets a `500 body_already_read` Error body saying so.
 */
export function petstoreMiddleware(options: MiddlewareOptions = {}): PetstoreMiddleware {
  const { mock: given, ...mockOptions } = options;
  const keys = mockOptions.keys ?? ['dev-key'];
  const mock =
    given ??
    createNodeMock({
      ...mockOptions,
      // The web pages, as the CLI serves them: the dashboard at /__admin/ui, the reference at /__admin/docs
      // (/ is the app's). Only the public dev-key is filled in for you, never a key of yours.
      publicFiles: mockOptions.publicFiles ?? loadWebPages({ defaultKey: defaultKeyOf(keys) }),
    });
  const bases = [options.basePath ?? defaultBasePath, adminBasePath];
  const serves = (url: string): boolean =>
    bases.some((base) => isUnder(url, base)) || documentPaths.has(url.split('?')[0] ?? url);
  const middleware = (req: ParsedRequest, res: ServerResponse, next: (error?: unknown) => void): void => {
    // Where the app mounted it at its own base path (`app.use('/v1', petstoreMiddleware())`), Express took the
    // base off req.url: the path the client sent (req.originalUrl) is then the one the mock serves.
    const url = [req.url ?? '/', req.originalUrl].find((candidate) => candidate !== undefined && serves(candidate));
    if (url === undefined) {
      next();
      return;
    }
    const request = toPlainRequest(req, url);
    const parsed = req.body;
    if (parsed instanceof Uint8Array) request.body = parsed;
    else if (typeof parsed === 'string') request.body = new TextEncoder().encode(parsed);
    else if (parsed !== undefined && req.readableEnded) {
      request.body = () =>
        Promise.reject(
          new HttpError(
            'body_already_read',
            'a body parser mounted before petstoreMiddleware has already parsed this body, and parsing it again could change what the client sent; mount petstoreMiddleware before express.json() and the like',
          ),
        );
    }
    mock
      .handle(request)
      .then((response) => writeNodeResponse(req, res, response))
      .catch(next);
  };
  return Object.assign(middleware, { mock });
}

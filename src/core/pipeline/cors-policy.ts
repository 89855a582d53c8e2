import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';

const policy = cors({
  origin: true,
  allowedHeaders: ['Authorization', 'Content-Type', 'Prefer', 'X-Request-Id'],
  exposedHeaders: ['Deprecation', 'Sunset', 'Link', 'WWW-Authenticate', 'Allow', 'Preference-Applied', 'X-Request-Id'],
  maxAge: 600,
});

/**
 * CORS for any origin, with the preflight answered here, before authentication.
 * A request without `Origin` is not a cross-origin request, so it skips the
 * CORS headers (every API response is `no-store`, so no cache can hand such a
 * response to a cross-origin caller).
 */
export function corsPolicy(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
  if (req.headers.origin === undefined) {
    next();
    return;
  }
  policy(req, res, next);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/**
 * One `info` line per request once its response has gone out: id, method,
 * URL, status and time, never headers (so never a key). A plain call on the
 * shared logger, not a child logger per request as pino-http makes: at the
 * default level that halved throughput (see README, Performance).
 */
export function createRequestLogger(logger: Logger) {
  return function logRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    res.on('finish', () => {
      logger.info(
        {
          req: { id: req.id, method: req.method, url: req.url },
          res: { statusCode: res.statusCode },
          responseTime: Math.round((performance.now() - started) * 100) / 100,
        },
        'request completed',
      );
    });
  };
}

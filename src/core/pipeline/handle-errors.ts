import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { HttpError } from '../errors/http-error.js';
import { toErrorResult } from '../errors/to-error-result.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { serialise } from './response-cache.js';
import { sendResponse } from './send-response.js';
import { validateResponse } from './validate-response.js';

/**
 * The last two stages of the app: a JSON 404 for any path outside the served
 * APIs, and the error handler for anything thrown outside the API pipeline.
 * Both answer with an Error body, checked against the document's Error schema.
 */
export function createFallthroughHandlers(compiled: CompiledDocument, logger: Logger) {
  const answer = (res: ServerResponse, error: unknown): void => {
    if (res.headersSent) {
      logger.error({ err: error }, 'error after the response had started');
      res.destroy();
      return;
    }
    sendResponse(res, serialise(validateResponse(compiled, undefined, toErrorResult(error, logger), logger)), []);
  };
  return {
    /** Answers with the Error body of anything thrown, unless the response has started (then it cuts it). */
    answerError: answer,
    handleUnknownPath(req: Request, res: Response): void {
      answer(
        res,
        new HttpError('route_not_found', `nothing is served at ${req.method} ${req.path}; the API is under /v1`),
      );
    },
    handleErrors(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
      answer(res, error);
    },
  };
}

import { HttpError } from '../errors/http-error.js';
import type { HandlerResponse } from '../types/handler-response.js';
import type { HandlerTable } from '../handlers/handler-types.js';
import type { ValidRequest } from '../types/valid-request.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { Preference } from './read-preference.js';

/** Answers an operation that has no stateful handler (Prism's mocker, in Node). */
export type FallbackMocker = (
  operation: CompiledOperation,
  request: ValidRequest,
  status?: number,
) => Promise<HandlerResponse>;

export interface RunHandlerInput<Context> {
  operation: CompiledOperation;
  request: ValidRequest;
  preference: Preference;
  handlers: HandlerTable<Context>;
  context: Context;
  fallback: FallbackMocker | undefined;
}

/**
 * Produces the response: the documented example when `Prefer: code=` asked for
 * one, served verbatim (the store is never touched then) and marked with
 * `Preference-Applied`, otherwise the operation's handler, or the fallback
 * mocker for an operation without one.
 */
export async function runHandler<Context>(input: RunHandlerInput<Context>): Promise<HandlerResponse> {
  const { operation, request, preference } = input;
  if (preference.status !== undefined) {
    const response = await preferredResponse(input, preference.status);
    return { ...response, headers: { ...response.headers, 'preference-applied': `code=${preference.status}` } };
  }
  const handler = input.handlers[operation.operationId];
  if (handler) return handler(request, input.context);
  if (!input.fallback) {
    throw new HttpError(
      'not_implemented',
      `${operation.operationId} (${operation.method} ${operation.pathTemplate}) has no behaviour of the kit: the model cannot place its kind (x-petstore-kind places it), and no fallback mocker is installed`,
    );
  }
  return input.fallback(operation, request);
}

/** The documented response `Prefer: code=` asked for: the named example, the first one, or the fallback's. */
async function preferredResponse<Context>(input: RunHandlerInput<Context>, status: number): Promise<HandlerResponse> {
  const { operation, request, preference } = input;
  const response = operation.responses.get(String(status));
  const names = [...(response?.examples.keys() ?? [])];
  if (preference.example !== undefined) {
    if (!response?.examples.has(preference.example)) {
      throw new HttpError(
        'invalid_prefer',
        `Prefer example=${preference.example} is not an example of ${operation.operationId} ${status} (examples: ${names.join(', ') || 'none'})`,
      );
    }
    return { status, body: structuredClone(response.examples.get(preference.example)) };
  }
  const [first] = names;
  if (response && first !== undefined) return { status, body: structuredClone(response.examples.get(first)) };
  if (response && response.validators.size === 0) return { status };
  if (!input.fallback) {
    throw new HttpError(
      'invalid_prefer',
      `Prefer code=${status}: ${operation.operationId} documents no example for that status to send`,
    );
  }
  return input.fallback(operation, request, status);
}

import { HttpError } from '../errors/http-error.js';
import type { ItemHandlerTable } from '../handlers/handler-types.js';
import { headerValue } from '../http/plain-http.js';
import { sunsetMoment } from '../model/is-past-sunset.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { HandlerResponse } from '../types/handler-response.js';
import type { ValidRequest } from '../types/valid-request.js';
import { type Preference, readPreference } from './read-preference.js';
import type { ResponseCache } from './response-cache.js';
import type { Answer, Middle, MiddleInput, Plan } from './select-mount.js';

/** Answers an operation that has no stateful handler (Prism's mocker, in Node). */
export type FallbackMocker = (
  operation: CompiledOperation,
  request: ValidRequest,
  status?: number,
) => Promise<HandlerResponse>;

export interface HandlerMiddleOptions {
  /** The handler of each operation the model placed, by operationId. */
  handlers: ItemHandlerTable;
  /** Answers an operation without a handler; without one, such an operation is `501 not_implemented`. */
  fallback: FallbackMocker | undefined;
  /** The mount's answers: a read whose answer it holds at the store's revision is not read again. */
  cache?: ResponseCache;
}

/** The valid request a middle is handed: the policy refuses every other before the middle. */
function validOf(input: MiddleInput): { operation: CompiledOperation; valid: ValidRequest } {
  const { operation, classified } = input;
  if (!operation || !classified?.valid) throw new Error('a request the policy refuses reached the handlers');
  return { operation, valid: classified.valid };
}

/**
 * What a request's `Prefer` asks of its operation, as a plan with no store
 * action yet: a `Prefer` the operation cannot honour is the plan's refusal.
 */
export function planPreference(input: MiddleInput, operation: CompiledOperation, sunset: number | undefined): Plan {
  try {
    const preference = readPreference(operation, headerValue(input.request, 'prefer'));
    return { action: undefined, sunset, refusal: undefined, preference, cached: undefined };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { action: undefined, sunset, refusal: error, preference: undefined, cached: undefined };
  }
}

/**
 * The mock's middle: the operation's handler, over the store, in its two
 * halves (its store action is settled with the request's session, fault and
 * clock in the one call to the state); the documented example when `Prefer:
 * code=` asked for one, served verbatim (the store is never touched then)
 * and marked with `Preference-Applied`; or the fallback mocker for an
 * operation without a handler. An operation past its sunset by the
 * session's clock is answered `410` before any of them.
 */
export function createHandlerMiddle(options: HandlerMiddleOptions): Middle {
  const { handlers, fallback, cache } = options;
  // Each operation's sunset as a moment, read from its date once rather than on every request.
  const sunsets = new Map<CompiledOperation, number>();
  const sunsetOf = (operation: CompiledOperation): number | undefined => {
    if (operation.sunset === undefined) return undefined;
    let moment = sunsets.get(operation);
    if (moment === undefined) sunsets.set(operation, (moment = sunsetMoment(operation.sunset)));
    return moment;
  };
  return {
    plan(input): Plan {
      const { operation, valid } = validOf(input);
      const sunset = sunsetOf(operation);
      const plan = planPreference(input, operation, sunset);
      const handler =
        plan.preference && plan.preference.status === undefined ? handlers[operation.operationId] : undefined;
      if (handler) {
        const action = handler.plan(valid);
        if (cache && handler.sameAtRevision && (action.op === 'list' || action.op === 'get')) {
          // Asked inside the store's call, at its revision: the answer found is kept for `answer`, which sends it.
          const { request } = input;
          action.answered = (revision) => (plan.cached = cache.get(operation, revision, request)) !== undefined;
        }
        plan.action = action;
      }
      return plan;
    },
    answer(input, plan, settled): Answer | Promise<Answer> {
      const { operation, valid } = validOf(input);
      const status = plan.preference?.status;
      if (status !== undefined) return preferredAnswer(operation, valid, plan.preference ?? {}, status, fallback);
      const handler = handlers[operation.operationId];
      if (handler) {
        if (!settled.result) throw new Error(`${operation.operationId}: its store action was not performed`);
        if (settled.result.answered) {
          if (!plan.cached) throw new Error(`${operation.operationId}: the store skipped a read nothing answered`);
          return { kind: 'cached', response: plan.cached };
        }
        const response = handler.answer(valid, settled.result);
        if (!handler.sameAtRevision) return { kind: 'handled', response };
        return { kind: 'handled', response, revision: settled.result.revision };
      }
      if (!fallback) {
        throw new HttpError(
          'not_implemented',
          `${operation.operationId} (${operation.method} ${operation.pathTemplate}) has no behaviour of the kit: the model cannot place its kind (x-petstore-kind places it), and no fallback mocker is installed`,
        );
      }
      return fallback(operation, valid).then((response) => ({ kind: 'handled', response }));
    },
  };
}

/** The documented response `Prefer: code=` asked for, marked `Preference-Applied`. */
export async function preferredAnswer(
  operation: CompiledOperation,
  request: ValidRequest,
  preference: Preference,
  status: number,
  fallback: FallbackMocker | undefined,
): Promise<Answer> {
  const response = await preferredResponse(operation, request, preference, status, fallback);
  return {
    kind: 'handled',
    response: { ...response, headers: { ...response.headers, 'preference-applied': `code=${status}` } },
  };
}

/** The documented response `Prefer: code=` asked for: the named example, the first one, or the fallback's. */
export async function preferredResponse(
  operation: CompiledOperation,
  request: ValidRequest,
  preference: Preference,
  status: number,
  fallback: FallbackMocker | undefined,
): Promise<HandlerResponse> {
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
  if (!fallback) {
    throw new HttpError(
      'invalid_prefer',
      `Prefer code=${status}: ${operation.operationId} documents no example for that status to send`,
    );
  }
  return fallback(operation, request, status);
}

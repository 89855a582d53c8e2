import type { HandlerTable } from '../handlers/handler-types.js';
import { planPreference, preferredAnswer } from '../pipeline/run-handler.js';
import type { Middle } from '../pipeline/select-mount.js';
import type { SessionRef } from '../state/state-store.js';
import type { AdminContext } from './admin-handlers.js';

/**
 * The admin API's middle: it asks nothing of the state but the caller's
 * session (settled like any request's), then answers the documented example
 * `Prefer: code=` asks for, or runs the operation's handler, whose every
 * change goes through the state port.
 */
export function createAdminMiddle(
  handlers: HandlerTable<AdminContext>,
  context: (session: SessionRef) => AdminContext,
): Middle {
  return {
    plan: (input) => {
      if (!input.operation) throw new Error('a request the policy refuses reached the admin handlers');
      return planPreference(input, input.operation, undefined);
    },
    answer: async ({ operation, classified }, plan, settled) => {
      const handler = operation && handlers[operation.operationId];
      if (!handler || !classified?.valid) throw new Error('a request the policy refuses reached the admin handlers');
      const status = plan.preference?.status;
      if (status !== undefined) {
        return preferredAnswer(operation, classified.valid, plan.preference ?? {}, status, undefined);
      }
      return { kind: 'handled', response: await handler(classified.valid, context(settled.session)) };
    },
  };
}

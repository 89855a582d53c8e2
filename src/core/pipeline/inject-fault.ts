import { HttpError } from '../errors/http-error.js';
import type { NetworkFault } from '../http/plain-http.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { Session } from '../sessions/session.js';

/**
 * Takes the fault scheduled for this request, if any (by POST
 * /__admin/faults or `mock.scheduleFault()`): an HTTP error is thrown as an
 * Error body that says it was injected and by which of them; a broken
 * connection is returned for the adapter to make.
 */
export function injectFault(session: Session, operation: CompiledOperation): NetworkFault | undefined {
  const fault = session.faults.take(operation.operationId);
  if (!fault) return undefined;
  if (fault.fault) return fault.fault;
  throw new HttpError(
    'injected_fault',
    `fault ${fault.id} injected for ${operation.operationId} by ${fault.source}: status ${fault.status}`,
    { status: fault.status },
  );
}

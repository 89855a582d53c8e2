import { HttpError } from '../errors/http-error.js';
import type { NetworkFault } from '../http/plain-http.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
// eslint-disable-next-line no-restricted-imports -- until the pipeline reads sessions through the state port
import type { Session } from '../sessions/session.js';

/**
 * Takes the fault scheduled for this request, if any (see POST
 * /__admin/faults): an HTTP error is thrown as an Error body that says it
 * was injected; a broken connection is returned for the adapter to make.
 */
export function injectFault(session: Session, operation: CompiledOperation): NetworkFault | undefined {
  const fault = session.faults.take(operation.operationId);
  if (!fault) return undefined;
  if (fault.fault) return fault.fault;
  throw new HttpError(
    'injected_fault',
    `fault ${fault.id} injected for ${operation.operationId} by POST /__admin/faults: status ${fault.status}`,
    { status: fault.status },
  );
}

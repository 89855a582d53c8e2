import { HttpError } from '../errors/http-error.js';
import type { NetworkFault } from '../http/plain-http.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { TakenFault } from '../state/state-store.js';

/**
 * What the fault the state took for this request makes of its answer (scheduled
 * by POST /__admin/faults or `mock.scheduleFault()`): an HTTP error, answered
 * with an Error body that says it was injected and by which of them, or a
 * broken connection for the adapter to make.
 */
export function injectFault(fault: TakenFault, operation: CompiledOperation): HttpError | NetworkFault {
  if (fault.fault) return fault.fault;
  return new HttpError(
    'injected_fault',
    `fault ${fault.id} injected for ${operation.operationId} by ${fault.source}: status ${fault.status}`,
    { status: fault.status },
  );
}

import { HttpError } from '../errors/http-error.js';
import type { NetworkFault } from '../http/plain-http.js';
import type { CompiledOperation } from '../openapi/compile-document.js';
import type { ScheduledFault } from '../state/state-store.js';

/**
 * What the fault the state took for this request makes of its answer (see
 * POST /__admin/faults): an HTTP error, answered with an Error body that
 * says it was injected, or a broken connection for the adapter to make.
 */
export function injectFault(fault: ScheduledFault, operation: CompiledOperation): HttpError | NetworkFault {
  if (fault.fault) return fault.fault;
  return new HttpError(
    'injected_fault',
    `fault ${fault.id} injected for ${operation.operationId} by POST /__admin/faults: status ${fault.status}`,
    { status: fault.status },
  );
}

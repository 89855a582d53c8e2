import type { HttpError } from '../errors/http-error.js';
import { requestFindings } from '../oracle/classify-request.js';
import { type Finding, finding } from '../oracle/finding.js';

/**
 * What becomes of a problem with a request (an unknown route, a body that
 * cannot be decoded, a request that breaks the document): one policy per
 * mount, so that the pipeline reads the same for the mock and the proxy.
 *
 * - `refuse` (the mock): it is answered with its Error body;
 * - `report` (the proxy): it is noted as a request-side finding and the
 *   request goes on, as it came;
 * - `reportAndRefuse` (the proxy with --enforce): noted, then refused.
 *
 * A body beyond the server's own bounds (`413 payload_too_large`: larger,
 * or inflating larger, than it reads, or beyond the bytes every body being
 * inflated shares) is no finding about the client: every policy refuses it.
 */
export interface RequestPolicy {
  readonly name: 'refuse' | 'report' | 'reportAndRefuse';
  /**
   * What becomes of `problem`: the refusal to answer with (`problem` itself),
   * or undefined to let the request through; the proxy notes it in `findings` first.
   */
  meet(problem: HttpError, findings: Finding[]): HttpError | undefined;
}

/** A body beyond the server's own bounds: refused under every policy, and no finding about the client. */
const beyondOwnBounds = (problem: HttpError): boolean => problem.code === 'payload_too_large';

/** The request-side findings of a problem the pipeline met: the route, or what `classifyRequest` says. */
function findingsOf(problem: HttpError): Finding[] {
  if (problem.code === 'route_not_found' || problem.code === 'method_not_allowed') {
    return [finding('request-operation', problem.message)];
  }
  return requestFindings(problem);
}

export const refuse: RequestPolicy = {
  name: 'refuse',
  meet(problem) {
    return problem;
  },
};

export const report: RequestPolicy = {
  name: 'report',
  meet(problem, findings) {
    if (beyondOwnBounds(problem)) return problem;
    findings.push(...findingsOf(problem));
    return undefined;
  },
};

export const reportAndRefuse: RequestPolicy = {
  name: 'reportAndRefuse',
  meet(problem, findings) {
    if (beyondOwnBounds(problem)) return problem;
    findings.push(...findingsOf(problem));
    return problem;
  },
};

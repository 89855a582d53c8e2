import { HttpError } from '../errors/http-error.js';
import { requestFindings } from '../oracle/classify-request.js';
import { type Finding, finding } from '../oracle/finding.js';

/**
 * What becomes of a problem with a request (an unknown route, a body that
 * cannot be decoded, a request that breaks the document): one policy per
 * mount, so that the pipeline reads the same for the mock and the proxy.
 *
 * - `refuse` (the mock): it is thrown on, and answered with its Error body;
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
  /** Either throws `problem`, or notes it in `findings` and returns. */
  meet(problem: HttpError, findings: Finding[]): void;
}

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
    throw problem;
  },
};

export const report: RequestPolicy = {
  name: 'report',
  meet(problem, findings) {
    findings.push(...findingsOf(problem));
  },
};

export const reportAndRefuse: RequestPolicy = {
  name: 'reportAndRefuse',
  meet(problem, findings) {
    findings.push(...findingsOf(problem));
    throw problem;
  },
};

/** Runs one check of the request under a policy: its value, or undefined when the policy let its problem through. */
export function attempt<T>(policy: RequestPolicy, findings: Finding[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof HttpError) || error.code === 'payload_too_large') throw error;
    policy.meet(error, findings);
    return undefined;
  }
}

/** `attempt` for a check that answers later (decoding a body). */
export async function attemptLater<T>(
  policy: RequestPolicy,
  findings: Finding[],
  check: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof HttpError) || error.code === 'payload_too_large') throw error;
    policy.meet(error, findings);
    return undefined;
  }
}

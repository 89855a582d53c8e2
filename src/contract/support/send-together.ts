import type { CompiledOperation } from '../../core/openapi/compile-document.js';
import type { ReferenceModel } from '../../core/model/reference-model.js';
import { fails, type Finding } from '../../core/oracle/finding.js';
import type { ContractResponse, ContractSession, RequestParts } from '../contract-session.js';
import { describeRequest } from '../http-client.js';

/** A request of a group sent at once. */
export interface TogetherCall {
  operation: CompiledOperation;
  request: RequestParts;
}

/** What a group sent at once showed. */
export interface TogetherOutcome {
  /** Each call's answer, in the order of the calls. */
  responses: ContractResponse[];
  /**
   * An order of the calls (their indexes) that explains every answer by the
   * model, as if they had been sent one after another; undefined when none
   * does (the answers are then judged in the order they came).
   */
  order: number[] | undefined;
  /** What the model found across the exchanges, in that order (recorded with the check's findings). */
  findings: Finding[];
}

/** Orders tried at most before the search gives up (each is a few model steps on a copy of the model). */
const maxSteps = 5_000;

interface Answered {
  response: ContractResponse;
  write: boolean;
}

/**
 * An order of the answered calls in which the model finds nothing failing,
 * searched depth first on copies of the model (a call that fails where it
 * stands cuts that branch), writes tried before reads and each by when its
 * answer came: the order a deployment most often acts in. Undefined when no
 * order does, or the search ran out of steps.
 */
function linearize(memory: ReferenceModel, answered: readonly Answered[], strict: boolean): number[] | undefined {
  const tryFirst = answered
    .map((each, index) => ({ each, index }))
    .sort(
      (a, b) =>
        Number(b.each.write) - Number(a.each.write) ||
        a.each.response.sent.answeredAt - b.each.response.sent.answeredAt,
    )
    .map(({ index }) => index);
  let steps = 0;
  const search = (model: ReferenceModel, order: number[]): number[] | undefined => {
    if (order.length === answered.length) return order;
    for (const index of tryFirst) {
      if (order.includes(index) || steps++ > maxSteps) continue;
      const { response } = answered[index] as Answered;
      const next = model.clone();
      const found = next.observe(response.classified, response.status, response.body, response.sent.answeredAt);
      if (found.some((each) => fails(each, strict))) continue;
      const complete = search(next, [...order, index]);
      if (complete) return complete;
    }
    return undefined;
  };
  return search(memory, []);
}

/**
 * Sends a group of requests at once and judges them as the document would
 * have them: each exchange alone by the oracle, and together as some order of
 * them (linearizability over the reference model): every acknowledged create
 * kept with an id of its own, no id handed out twice, a read or a page
 * showing a state some order of the group could leave. The order found is
 * committed to `memory` (the run's model unless told). When no order explains
 * the answers, they are judged in the order they came, each failing finding
 * saying so.
 */
export async function sendTogether(
  api: ContractSession,
  calls: readonly TogetherCall[],
  memory: ReferenceModel = api.model,
): Promise<TogetherOutcome> {
  const responses = await Promise.all(
    calls.map((call) => api.call(call.operation, call.request, { defer: true, memory })),
  );
  const answered = responses.map((response) => ({
    response,
    write: !['list', 'read', 'other'].includes(api.api.of(response.classified.operation).kind),
  }));
  const strict = api.settings.strict;
  const order = linearize(memory, answered, strict);
  const committed =
    order ??
    answered
      .map((_, index) => index)
      .sort((a, b) => (answered[a]?.response.sent.answeredAt ?? 0) - (answered[b]?.response.sent.answeredAt ?? 0));
  const findings: Finding[] = [];
  for (const index of committed) {
    const { response } = answered[index] as Answered;
    const exchange = `${describeRequest(response.sent.request)} → ${response.status}`;
    for (const found of memory.observe(response.classified, response.status, response.body, response.sent.answeredAt)) {
      const unexplained = order === undefined && fails(found, strict);
      const judged = {
        ...found,
        exchange,
        message: unexplained
          ? `${found.message} (no order of the ${calls.length} requests sent together explains their answers; judged in the order they came)`
          : found.message,
      };
      api.record(judged);
      findings.push(judged);
    }
  }
  return { responses, order, findings };
}

import type { CompiledOperation } from '../../core/openapi/compile-document.js';
import type { ReferenceModel } from '../../core/oracle/reference-model.js';
import type { ClassifiedRequest } from '../../core/oracle/classify-request.js';
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

/** An exchange of a group as the model judges it: the request, the answer, when it came, and whether it writes. */
export interface GroupExchange {
  classified: ClassifiedRequest;
  status: number;
  body: unknown;
  answeredAt: number;
  write: boolean;
}

/**
 * An order of a group's exchanges (their indexes) in which the model finds
 * nothing failing, as if they had been sent one after another: searched
 * depth first on copies of the model (an exchange that fails where it
 * stands cuts that branch), writes tried before reads and each by when its
 * answer came, the order a deployment most often acts in. Undefined when no
 * order does, or the search ran out of steps. `memory` is left as it was.
 */
export function explainingOrder(
  memory: ReferenceModel,
  exchanges: readonly GroupExchange[],
  strict = false,
): number[] | undefined {
  const tryFirst = exchanges
    .map((each, index) => ({ each, index }))
    .sort((a, b) => Number(b.each.write) - Number(a.each.write) || a.each.answeredAt - b.each.answeredAt)
    .map(({ index }) => index);
  let steps = 0;
  const search = (model: ReferenceModel, order: number[]): number[] | undefined => {
    if (order.length === exchanges.length) return order;
    for (const index of tryFirst) {
      if (order.includes(index) || steps++ > maxSteps) continue;
      const exchange = exchanges[index] as GroupExchange;
      const next = model.clone();
      const found = next.observe(exchange.classified, exchange.status, exchange.body, exchange.answeredAt);
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
  const exchanges = responses.map((response): GroupExchange => ({
    classified: response.classified,
    status: response.status,
    body: response.body,
    answeredAt: response.sent.answeredAt,
    write: !['list', 'read', 'other'].includes(api.api.of(response.classified.operation).kind),
  }));
  const strict = api.settings.strict;
  const order = explainingOrder(memory, exchanges, strict);
  const committed =
    order ??
    exchanges
      .map((_, index) => index)
      .sort((a, b) => (exchanges[a]?.answeredAt ?? 0) - (exchanges[b]?.answeredAt ?? 0));
  const findings: Finding[] = [];
  for (const index of committed) {
    const response = responses[index] as ContractResponse;
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

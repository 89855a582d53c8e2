import { HttpError } from '../errors/http-error.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { Latency } from '../pipeline/apply-latency.js';
import { faultKinds, type FaultRequest, type ScheduledFault } from '../sessions/fault-plan.js';
import type { Session } from '../sessions/session.js';
import { checkFault } from './admin-handlers.js';

/** The largest latency the admin API takes (`AdminLatency` in admin-document.ts): one minute. */
export const maxLatencyMs = 60_000;
/** The most requests one fault may hit (`AdminNewFault.times`). */
export const maxFaultTimes = 1_000_000;

const isWhole = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * Schedules a fault from a typed call (`mock.scheduleFault`), checked as
 * `POST /__admin/faults` checks its body (the admin document's `AdminNewFault`,
 * then `checkFault`), so that both refuse the same faults with the same
 * `400 invalid_fault`.
 */
export function scheduleFault(session: Session, api: CompiledDocument, request: FaultRequest): ScheduledFault {
  const refuse = (message: string): never => {
    throw new HttpError('invalid_fault', message);
  };
  if (typeof request !== 'object' || request === null) refuse('a fault is an object: { status } or { fault }');
  if (request.status !== undefined && !isWhole(request.status, 400, 599)) {
    refuse(`status must be an integer from 400 to 599, got ${String(request.status)}`);
  }
  if (request.fault !== undefined && !(faultKinds as readonly string[]).includes(request.fault)) {
    refuse(`fault must be one of ${faultKinds.join(', ')}, got ${String(request.fault)}`);
  }
  if (request.times !== undefined && !isWhole(request.times, 1, maxFaultTimes)) {
    refuse(`times must be an integer from 1 to ${maxFaultTimes}, got ${String(request.times)}`);
  }
  const { probability } = request;
  if (probability !== undefined && !(typeof probability === 'number' && probability >= 0 && probability <= 1)) {
    refuse(`probability must be a number from 0 to 1, got ${String(probability)}`);
  }
  if (request.operationId !== undefined && (typeof request.operationId !== 'string' || request.operationId === '')) {
    refuse('operationId must be a non-empty string');
  }
  return session.faults.add(checkFault({ ...request }, api), 'scheduleFault()');
}

/**
 * Sets the session's latency from a typed call (`mock.setLatency`), checked
 * as `PUT /__admin/latency` checks its body: whole milliseconds from 0 to
 * 60,000, `min` not above `max`; `{ min: 0, max: 0 }` is none.
 */
export function setLatency(session: Session, latency: Latency): Latency {
  const { min, max } = latency;
  if (!isWhole(min, 0, maxLatencyMs) || !isWhole(max, 0, maxLatencyMs)) {
    throw new HttpError(
      'invalid_body',
      `latency min and max must be integers from 0 to ${maxLatencyMs} ms, got ${String(min)} and ${String(max)}`,
    );
  }
  if (min > max) throw new HttpError('invalid_body', `latency min (${min}) must not be above max (${max})`);
  session.latency = max > 0 ? { min, max } : undefined;
  return { min, max };
}

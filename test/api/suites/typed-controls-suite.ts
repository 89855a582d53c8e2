import { describe, expect } from 'vitest';
import type { Mock } from '../../../src/create-mock.js';
import {
  nothingToRun,
  testsFor,
  type StartOptions,
  type Subject,
  type Target,
} from '../../support/behaviour-subject.js';
import { caught } from '../../support/caught.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

// The controls throw the mock's HttpError: what a caller sees of it is its code, status and message.

/** The typed per-test controls of a mock held in the test's process: faults, scenarios, latency, each undone by reset(). */
export function typedControlsSuite(subject: Subject): void {
  const r = subject.resource;
  const list = r.list;
  if (!list) return nothingToRun(`the document has no list of ${r.name}`);
  const it = testsFor(subject, { mock: true });
  const missing = ['deleteNothing', 'deletePet', 'removeItem'].find((id) => !subject.facts.operationIds.includes(id));
  const withMock = async (options: StartOptions, act: (mock: Mock, target: Target) => Promise<void> | void) => {
    const target = await subject.start(options);
    try {
      if (!target.mock) throw new Error('the transport holds no mock in this process');
      await act(target.mock, target);
    } finally {
      await target.close();
    }
  };
  const listed = (target: Target, session?: string) =>
    request(`${target.baseUrl}${r.collectionPath}`, {
      headers: session ? { ...auth, 'Petstore-Session': session } : auth,
    });
  const latencyOf = async (target: Target) =>
    (await request(`${target.origin}/__admin/latency`, { headers: auth })).body;

  describe('the typed per-test control on a mock: faults, scenarios, latency, each undone by reset()', () => {
    it('schedules a fault that the next matching request gets, once, as POST /__admin/faults does', () =>
      withMock({ scenario: 'one-of-each-status' }, async (mock, target) => {
        expect(mock.scheduleFault({ operationId: list.operationId, status: 500 })).toEqual({
          id: 1,
          operationId: list.operationId,
          status: 500,
          times: 1,
        });
        expect(mock.faults()).toHaveLength(1);
        const failed = await listed(target);
        expect(failed.status).toBe(500);
        expect(failed.body).toMatchObject({ code: 'injected_fault', status: 500 });
        expect((await listed(target)).status).toBe(200);
        expect(mock.faults()).toEqual([]);
      }));

    it('breaks the connection for a network fault: mock.fetch rejects', () =>
      withMock({}, async (mock, target) => {
        mock.scheduleFault({ fault: 'connection_reset' });
        await expect(
          mock.fetch(new Request(`${target.baseUrl}${r.collectionPath}`, { headers: auth })),
        ).rejects.toThrow('connection_reset');
      }));

    it('refuses what the admin API refuses, with the same code and words', () =>
      withMock({}, async (mock, target) => {
        const cases: Array<[Parameters<typeof mock.scheduleFault>[0], string]> = [
          [{ status: 700 }, 'status must be an integer from 400 to 599'],
          [{ status: 500, fault: 'timeout' }, 'a fault needs exactly one of status'],
          [{}, 'a fault needs exactly one of status'],
          [{ status: 500, times: 0 }, 'times must be an integer from 1'],
          [{ status: 500, probability: 2 }, 'probability must be a number from 0 to 1'],
          [{ fault: 'unplugged' as never }, 'fault must be one of connection_reset'],
          [{ operationId: missing, status: 500 }, `no operation of the API is '${missing}'`],
        ];
        for (const [fault, message] of cases) {
          const error = caught(Error, () => mock.scheduleFault(fault), JSON.stringify(fault));
          expect(error).toMatchObject({ code: 'invalid_fault', status: 400 });
          expect(error.message).toContain(message);
        }
        const overHttp = await request(`${target.origin}/__admin/faults`, {
          method: 'POST',
          headers: jsonAuth,
          body: JSON.stringify({ operationId: missing, status: 500 }),
        });
        expect(overHttp.body).toMatchObject({
          code: 'invalid_fault',
          message: caught(Error, () => mock.scheduleFault({ operationId: missing, status: 500 }), String(missing))
            .message,
        });
        expect(mock.faults()).toEqual([]);
      }));

    it('refuses the 101st fault of a session with 409 too_many_faults, as over HTTP', () =>
      withMock({}, (mock) => {
        for (let count = 0; count < 100; count++) mock.scheduleFault({ status: 503, times: 5 });
        expect(caught(Error, () => mock.scheduleFault({ status: 503 }), 'the 101st fault')).toMatchObject({
          code: 'too_many_faults',
          status: 409,
        });
        expect(mock.clearFaults()).toBe(100);
      }));

    it('sets the latency the admin API reports, refusing what it refuses', () =>
      withMock({}, async (mock, target) => {
        expect(mock.setLatency({ min: 10, max: 40 })).toEqual({ min: 10, max: 40 });
        expect(await latencyOf(target)).toEqual({ min: 10, max: 40 });
        for (const latency of [
          { min: 50, max: 10 },
          { min: -1, max: 10 },
          { min: 0, max: 60_001 },
          { min: 0.5, max: 1 },
        ]) {
          expect(caught(Error, () => mock.setLatency(latency), JSON.stringify(latency))).toMatchObject({
            code: 'invalid_body',
            status: 400,
          });
        }
        expect(await latencyOf(target)).toEqual({ min: 10, max: 40 });
        mock.setLatency({ min: 0, max: 0 });
        expect(await latencyOf(target)).toEqual({ min: 0, max: 0 });
      }));

    it('undoes a fault, a scenario and a latency with reset(), back to the options', () =>
      withMock({ scenario: 'one-of-each-status', latency: { min: 1, max: 2 } }, async (mock, target) => {
        mock.scheduleFault({ status: 500, times: 3 });
        mock.setLatency({ min: 100, max: 100 });
        await mock.switchScenario('empty');
        mock.reset();
        expect(mock.faults()).toEqual([]);
        expect(await latencyOf(target)).toEqual({ min: 1, max: 2 });
        expect(mock.scenario).toBe('one-of-each-status');
        expect((await listed(target)).status).toBe(200);
        // The next fault is number 1 again.
        expect(mock.scheduleFault({ status: 500 }).id).toBe(1);
      }));

    it('acts on one session only: mock.session(name) has the same control', () =>
      withMock({}, async (mock, target) => {
        mock.session('w2').scheduleFault({ status: 503 });
        expect(mock.faults()).toEqual([]);
        expect((await listed(target)).status).toBe(200);
        expect((await listed(target, 'w2')).status).toBe(503);
        mock.session('w2').setLatency({ min: 5, max: 5 });
        expect(await latencyOf(target)).toEqual({ min: 0, max: 0 });
      }));
  });
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nothingToRun, testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, fetchAny, jsonAuth, request } from '../../support/start-server.js';
import { onTestClock, untilTimers, watched } from '../../support/test-clock.js';

/** Faults (POST /__admin/faults) and latency (PUT /__admin/latency), per session, named by the document's operations. */
export function faultsSuite(subject: Subject): void {
  const r = subject.resource;
  const list = r.list;
  if (!list) return nothingToRun(`the document has no list of ${r.name}`);
  /** An operation of the resource besides the list, and a request of it that succeeds when nothing is injected. */
  const other = r.read
    ? { operationId: r.read.operationId, method: 'GET', path: r.itemPath(1), body: undefined, ok: 200 }
    : r.create
      ? {
          operationId: r.create.operationId,
          method: 'POST',
          path: r.collectionPath,
          body: JSON.stringify(r.newItem()),
          ok: 201,
        }
      : undefined;
  /** An operationId the document does not have. */
  const missing = ['deleteNothing', 'deletePet', 'removeItem'].find((id) => !subject.facts.operationIds.includes(id));

  describe('faults (POST /__admin/faults)', () => {
    let target: Target;
    beforeEach(async () => {
      target = await subject.start({ scenario: 'one-of-each-status', seed: 7 });
    });
    afterEach(() => target.close());
    const addFault = (fault: unknown, session?: string) =>
      request<Record<string, unknown>>(`${target.origin}/__admin/faults`, {
        method: 'POST',
        headers: session ? { ...jsonAuth, 'Petstore-Session': session } : jsonAuth,
        body: JSON.stringify(fault),
      });
    const listed = (session?: string) =>
      request(`${target.baseUrl}${r.collectionPath}`, {
        headers: session ? { ...auth, 'Petstore-Session': session } : auth,
      });
    const faults = async () =>
      (await request<{ faults: unknown[] }>(`${target.origin}/__admin/faults`, { headers: auth })).body.faults;
    const callOther = () =>
      other
        ? request(`${target.baseUrl}${other.path}`, {
            method: other.method,
            headers: other.body === undefined ? auth : jsonAuth,
            ...(other.body === undefined ? {} : { body: other.body }),
          })
        : Promise.reject(new Error('no other operation'));

    it('answers the next matching request with the status asked for, in an Error body that says it was injected', async () => {
      const scheduled = await addFault({ status: 503 });
      expect(scheduled.status).toBe(200);
      expect(scheduled.body).toEqual({ id: 1, status: 503, times: 1 });
      const failed = await listed();
      expect(failed.status).toBe(503);
      expect(failed.body).toEqual({
        code: 'injected_fault',
        message: `fault 1 injected for ${list.operationId} by POST /__admin/faults: status 503`,
        status: 503,
      });
      expect((await listed()).status).toBe(200);
      expect(await faults()).toEqual([]);
    });

    if (r.create) {
      const create = r.create;
      it.each([418, 429, 500, 502, 599])(
        'injects status %i, documented or not, with a valid Error body',
        async (status) => {
          await addFault({ status, operationId: create.operationId });
          const response = await request(`${target.baseUrl}${r.collectionPath}`, {
            method: 'POST',
            headers: jsonAuth,
            body: JSON.stringify(r.newItem()),
          });
          expect(response.status).toBe(status);
          expect(response.body).toMatchObject({ code: 'injected_fault', status });
        },
      );
    }

    it('refuses a fault beyond the 100 a session may hold with 409 too_many_faults, and schedules nothing', async () => {
      for (let index = 0; index < 100; index++) expect((await addFault({ status: 503, times: 5 })).status).toBe(200);
      const refused = await addFault({ status: 500 });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        code: 'too_many_faults',
        message:
          'the session already has 100 faults scheduled, the most it may hold (100); DELETE /__admin/faults clears them, or give one fault a times count',
        status: 409,
      });
      expect(await faults()).toHaveLength(100);
      // Another session has its own allowance.
      expect((await addFault({ status: 500 }, 'worker-2')).status).toBe(200);
    });

    if (other) {
      it('hits only the operation it names, and counts down its times', async () => {
        await addFault({ status: 500, operationId: other.operationId, times: 2 });
        expect((await listed()).status).toBe(200);
        expect((await callOther()).status).toBe(500);
        expect((await callOther()).status).toBe(500);
        expect((await callOther()).status).toBe(other.ok);
      });
    }

    it('leaves a request without a key to authentication: it gets 401 and the fault stays', async () => {
      await addFault({ status: 503 });
      expect((await request(`${target.baseUrl}${r.collectionPath}`)).status).toBe(401);
      expect((await listed()).status).toBe(503);
    });

    it('draws a probability from the seeded generator, so the same seed repeats the same run', async () => {
      const run = async () => {
        const local = await subject.start({ scenario: 'one-of-each-status', seed: 7 });
        try {
          await request(`${local.origin}/__admin/faults`, {
            method: 'POST',
            headers: jsonAuth,
            body: '{"status":500,"probability":0.5}',
          });
          const statuses: number[] = [];
          for (let index = 0; index < 40; index++)
            statuses.push((await request(`${local.baseUrl}${r.collectionPath}`, { headers: auth })).status);
          return statuses;
        } finally {
          await local.close();
        }
      };
      const first = await run();
      expect(await run()).toEqual(first);
      const hits = first.filter((status) => status === 500).length;
      expect(hits).toBeGreaterThan(5);
      expect(hits).toBeLessThan(35);
    });

    it('schedules faults per session', async () => {
      await addFault({ status: 500 }, 'chaos');
      expect((await listed()).status).toBe(200);
      expect((await listed('calm')).status).toBe(200);
      expect((await listed('chaos')).status).toBe(500);
    });

    it('lists and clears the faults still to come', async () => {
      const named = other?.operationId ?? list.operationId;
      await addFault({ status: 500, times: 3 });
      await addFault({ fault: 'connection_reset', operationId: named, probability: 0.25 });
      expect(await faults()).toEqual([
        { id: 1, status: 500, times: 3 },
        { id: 2, fault: 'connection_reset', operationId: named, probability: 0.25 },
      ]);
      const cleared = await request(`${target.origin}/__admin/faults`, { method: 'DELETE', headers: auth });
      expect(cleared.body).toEqual({ cleared: 2 });
      expect((await listed()).status).toBe(200);
    });

    it('breaks the connection for a network fault: the fetch rejects as it does when a connection breaks', async () => {
      await addFault({ fault: 'connection_reset' });
      await expect(fetchAny(`${target.baseUrl}${r.collectionPath}`, { headers: auth })).rejects.toThrow(TypeError);
      expect((await listed()).status).toBe(200);
      const journal = await request<{ requests: Array<{ url: string; fault?: string; status: number }> }>(
        `${target.origin}/__admin/requests`,
        { headers: auth },
      );
      expect(journal.body.requests.find((entry) => entry.fault)).toMatchObject({
        url: `/v1${r.collectionPath}`,
        fault: 'connection_reset',
        status: 0,
      });
    });

    testsFor(subject, { hangs: true })('keeps a timeout waiting until the caller gives up', async () => {
      await addFault({ fault: 'timeout', operationId: list.operationId });
      const caller = new AbortController();
      const waiting = watched(
        fetchAny(`${target.baseUrl}${r.collectionPath}`, { headers: auth, signal: caller.signal }),
      );
      // The fault is taken once the request reaches it: from then on, nothing answers the request.
      await vi.waitFor(async () => expect(await faults()).toEqual([]), { timeout: 10_000 });
      expect((await listed()).status).toBe(200);
      expect(await waiting.settled()).toBe(false);
      caller.abort();
      await expect(waiting.promise).rejects.toThrow();
    });

    it.each([
      [{}, 'a fault needs exactly one of status'],
      [{ status: 503, fault: 'timeout' }, 'a fault needs exactly one of status'],
      [{ status: 200 }, "body field 'status' must be >= 400"],
      [{ status: 600 }, "body field 'status' must be <= 599"],
      [{ status: 500.5 }, "body field 'status' must be integer"],
      [
        { fault: 'explode' },
        "body field 'fault' must be one of: connection_reset, empty_response, malformed_response, timeout",
      ],
      [{ status: 500, times: 0 }, "body field 'times' must be >= 1"],
      [{ status: 500, probability: 1.5 }, "body field 'probability' must be <= 1"],
      [
        { status: 500, operationId: missing },
        `no operation of the API is '${missing}' (operations: ${subject.facts.operationIds.join(', ')})`,
      ],
      [{ status: 500, colour: 'red' }, "body field 'colour' is not allowed here"],
    ])('refuses %j with a 400 saying why, and schedules nothing', async (fault, message) => {
      const response = await addFault(fault);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400 });
      expect(String(response.body.message)).toContain(message);
      expect(await faults()).toEqual([]);
    });
  });

  describe('latency (PUT /__admin/latency)', () => {
    const timed = testsFor(subject, { timers: true });
    let target: Target;
    beforeEach(async () => {
      target = await subject.start({ scenario: 'one-of-each-status' });
    });
    afterEach(() => target.close());
    const setLatency = (body: string, session?: string) =>
      request(`${target.origin}/__admin/latency`, {
        method: 'PUT',
        headers: session ? { ...jsonAuth, 'Petstore-Session': session } : jsonAuth,
        body,
      });

    timed('changes the latency of one session at run time, waiting exactly that long on the test’s clock', () =>
      onTestClock(async () => {
        const put = await setLatency('{"min":120,"max":120}', 'slow');
        expect(put.body).toEqual({ min: 120, max: 120 });
        const slow = watched(
          request(`${target.baseUrl}${r.collectionPath}`, { headers: { ...auth, 'Petstore-Session': 'slow' } }),
        );
        await untilTimers(1);
        await vi.advanceTimersByTimeAsync(119);
        expect(await slow.settled()).toBe(false);
        // Another session answers meanwhile, without waiting.
        expect((await request(`${target.baseUrl}${r.collectionPath}`, { headers: auth })).status).toBe(200);
        await vi.advanceTimersByTimeAsync(1);
        expect((await slow.promise).status).toBe(200);
        const read = await request(`${target.origin}/__admin/latency`, {
          headers: { ...auth, 'Petstore-Session': 'slow' },
        });
        expect(read.body).toEqual({ min: 120, max: 120 });
      }),
    );

    timed('delays neither health, nor the admin API, nor a request without a key', () =>
      onTestClock(async () => {
        expect((await setLatency('{"min":60000,"max":60000}')).status).toBe(200);
        // Each answers with the test's clock standing still: none of them waits the minute.
        expect((await request(`${target.origin}/__admin/health`)).status).toBe(200);
        expect((await request(`${target.origin}/__admin/latency`, { headers: auth })).status).toBe(200);
        expect((await request(`${target.baseUrl}${r.collectionPath}`)).status).toBe(401);
        expect(
          (await request(`${target.baseUrl}${r.collectionPath}`, { headers: { Authorization: 'Bearer nope' } })).status,
        ).toBe(401);
        expect((await request(`${target.origin}/__admin/requests`, { headers: auth })).status).toBe(200);
        // The API waits it; the call that removes the latency answers at once, and then the API does too.
        const waiting = watched(request(`${target.baseUrl}${r.collectionPath}`, { headers: auth }));
        await untilTimers(1);
        expect(await waiting.settled()).toBe(false);
        expect((await setLatency('{"min":0,"max":0}')).status).toBe(200);
        expect((await request(`${target.baseUrl}${r.collectionPath}`, { headers: auth })).status).toBe(200);
        await vi.advanceTimersByTimeAsync(60_000);
        expect((await waiting.promise).status).toBe(200);
      }),
    );

    it.each([
      [{ min: 10 }, "body field 'max' is required"],
      [{ min: 20, max: 10 }, 'latency min (20) must not be above max (10)'],
      [{ min: -1, max: 10 }, "body field 'min' must be >= 0"],
      [{ min: 0, max: 60_001 }, "body field 'max' must be <= 60000"],
    ])('refuses %j with a 400, and keeps the latency as it was', async (latency, message) => {
      const response = await request<{ message: string }>(`${target.origin}/__admin/latency`, {
        method: 'PUT',
        headers: jsonAuth,
        body: JSON.stringify(latency),
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(message);
      expect((await request(`${target.origin}/__admin/latency`, { headers: auth })).body).toEqual({ min: 0, max: 0 });
    });
  });
}

import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors/http-error.js';
import { auth, createTestMock, jsonAuth } from '../support/create-test-mock.js';
import { caught } from '../support/caught.js';

const list = new Request('http://mock.test/v1/pets', { headers: auth });
const latencyOver = (mock: ReturnType<typeof createTestMock>) =>
  mock.fetch(new Request('http://mock.test/__admin/latency', { headers: auth })).then((response) => response.json());

describe('the typed per-test control on a mock: faults, scenarios, latency, each undone by reset()', () => {
  it('schedules a fault that the next matching request gets, once, as POST /__admin/faults does', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status' });
    expect(mock.scheduleFault({ operationId: 'listPets', status: 500 })).toEqual({
      id: 1,
      operationId: 'listPets',
      status: 500,
      times: 1,
    });
    expect(mock.faults()).toHaveLength(1);
    const failed = await mock.fetch(list.clone());
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ code: 'injected_fault', status: 500 });
    expect((await mock.fetch(list.clone())).status).toBe(200);
    expect(mock.faults()).toEqual([]);
  });

  it('breaks the connection for a network fault: mock.fetch rejects', async () => {
    const mock = createTestMock();
    mock.scheduleFault({ fault: 'connection_reset' });
    await expect(mock.fetch(list.clone())).rejects.toThrow('connection_reset');
  });

  it('refuses what the admin API refuses, with the same code and words', async () => {
    const mock = createTestMock();
    const cases: Array<[Parameters<typeof mock.scheduleFault>[0], string]> = [
      [{ status: 700 }, 'status must be an integer from 400 to 599'],
      [{ status: 500, fault: 'timeout' }, 'a fault needs exactly one of status'],
      [{}, 'a fault needs exactly one of status'],
      [{ status: 500, times: 0 }, 'times must be an integer from 1'],
      [{ status: 500, probability: 2 }, 'probability must be a number from 0 to 1'],
      [{ fault: 'unplugged' as never }, 'fault must be one of connection_reset'],
      [{ operationId: 'deletePet', status: 500 }, "no operation of the API is 'deletePet'"],
    ];
    for (const [fault, message] of cases) {
      const error = caught(HttpError, () => mock.scheduleFault(fault), JSON.stringify(fault));
      expect(error).toMatchObject({ code: 'invalid_fault', status: 400 });
      expect(error.message).toContain(message);
    }
    const overHttp = await mock.fetch(
      new Request('http://mock.test/__admin/faults', {
        method: 'POST',
        headers: jsonAuth,
        body: JSON.stringify({ operationId: 'deletePet', status: 500 }),
      }),
    );
    expect(await overHttp.json()).toMatchObject({
      code: 'invalid_fault',
      message: caught(HttpError, () => mock.scheduleFault({ operationId: 'deletePet', status: 500 }), 'deletePet')
        .message,
    });
    expect(mock.faults()).toEqual([]);
  });

  it('refuses the 101st fault of a session with 409 too_many_faults, as over HTTP', () => {
    const mock = createTestMock();
    for (let count = 0; count < 100; count++) mock.scheduleFault({ status: 503, times: 5 });
    expect(caught(HttpError, () => mock.scheduleFault({ status: 503 }), 'the 101st fault')).toMatchObject({
      code: 'too_many_faults',
      status: 409,
    });
    expect(mock.clearFaults()).toBe(100);
  });

  it('sets the latency the admin API reports, refusing what it refuses', async () => {
    const mock = createTestMock();
    expect(mock.setLatency({ min: 10, max: 40 })).toEqual({ min: 10, max: 40 });
    expect(await latencyOver(mock)).toEqual({ min: 10, max: 40 });
    for (const latency of [
      { min: 50, max: 10 },
      { min: -1, max: 10 },
      { min: 0, max: 60_001 },
      { min: 0.5, max: 1 },
    ]) {
      expect(caught(HttpError, () => mock.setLatency(latency), JSON.stringify(latency))).toMatchObject({
        code: 'invalid_body',
        status: 400,
      });
    }
    expect(await latencyOver(mock)).toEqual({ min: 10, max: 40 });
    mock.setLatency({ min: 0, max: 0 });
    expect(await latencyOver(mock)).toEqual({ min: 0, max: 0 });
  });

  it('undoes a fault, a scenario and a latency with reset(), back to the options', async () => {
    const mock = createTestMock({ scenario: 'one-of-each-status', latency: { min: 1, max: 2 } });
    mock.scheduleFault({ status: 500, times: 3 });
    mock.setLatency({ min: 100, max: 100 });
    await mock.switchScenario('empty');
    mock.reset();
    expect(mock.faults()).toEqual([]);
    expect(await latencyOver(mock)).toEqual({ min: 1, max: 2 });
    expect(mock.scenario).toBe('one-of-each-status');
    expect((await mock.fetch(list.clone())).status).toBe(200);
    // The next fault is number 1 again.
    expect(mock.scheduleFault({ status: 500 }).id).toBe(1);
  });

  it('acts on one session only: mock.session(name) has the same control', async () => {
    const mock = createTestMock();
    mock.session('w2').scheduleFault({ status: 503 });
    expect(mock.faults()).toEqual([]);
    expect((await mock.fetch(list.clone())).status).toBe(200);
    const w2 = await mock.fetch(
      new Request('http://mock.test/v1/pets', { headers: { ...auth, 'Petstore-Session': 'w2' } }),
    );
    expect(w2.status).toBe(503);
    mock.session('w2').setLatency({ min: 5, max: 5 });
    expect(await latencyOver(mock)).toEqual({ min: 0, max: 0 });
  });
});

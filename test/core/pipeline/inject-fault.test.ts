import { describe, expect, it } from 'vitest';
import { FaultPlan } from '../../../src/core/sessions/fault-plan.js';
import { auth, createTestMock, jsonAuth } from '../../support/create-test-mock.js';

const list = () => new Request('http://mock.test/v1/pets', { headers: auth });

describe('an injected status fault names who scheduled it', () => {
  it('says scheduleFault() for a fault scheduled in-process', async () => {
    const mock = createTestMock();
    mock.scheduleFault({ operationId: 'listPets', status: 503 });
    expect(await (await mock.fetch(list())).json()).toEqual({
      code: 'injected_fault',
      message: 'fault 1 injected for listPets by scheduleFault(): status 503',
      status: 503,
    });
  });

  it('says POST /__admin/faults for a fault scheduled over the admin API, also beside one scheduled in-process', async () => {
    const mock = createTestMock();
    mock.scheduleFault({ operationId: 'getPet', status: 500 });
    const body = JSON.stringify({ operationId: 'listPets', status: 503 });
    await mock.fetch(new Request('http://mock.test/__admin/faults', { method: 'POST', headers: jsonAuth, body }));
    expect(((await (await mock.fetch(list())).json()) as { message: string }).message).toBe(
      'fault 2 injected for listPets by POST /__admin/faults: status 503',
    );
  });

  it('is said of a session’s own scheduleFault() too, and not listed among the faults', async () => {
    const mock = createTestMock();
    const session = mock.session('worker-1');
    session.scheduleFault({ status: 500, times: 2 });
    expect(session.faults()).toEqual([{ id: 1, status: 500, times: 2 }]);
    const inSession = () =>
      new Request('http://mock.test/v1/pets', { headers: { ...auth, 'Petstore-Session': 'worker-1' } });
    for (let hit = 0; hit < 2; hit++) {
      expect(((await (await mock.fetch(inSession())).json()) as { message: string }).message).toBe(
        'fault 1 injected for listPets by scheduleFault(): status 500',
      );
    }
    expect((await mock.fetch(inSession())).status).toBe(200);
  });
});

describe('a fault plan', () => {
  it('records who scheduled each fault, the admin API unless told, and forgets it on reset, when ids start again', () => {
    const plan = new FaultPlan(() => 0);
    plan.add({ status: 500 }, 'scheduleFault()');
    plan.add({ status: 501 });
    expect(plan.take('listPets')).toMatchObject({ id: 1, source: 'scheduleFault()' });
    expect(plan.take('listPets')).toMatchObject({ id: 2, source: 'POST /__admin/faults' });
    plan.add({ status: 500 }, 'scheduleFault()');
    plan.reset();
    plan.add({ status: 502 });
    expect(plan.take('getPet')).toMatchObject({ id: 1, status: 502, source: 'POST /__admin/faults' });
  });
});

import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import type { ItemHandlerTable } from '../../../src/core/handlers/handler-types.js';
import type { ValidRequest } from '../../../src/core/types/valid-request.js';
import { compileDocument, type CompiledOperation } from '../../../src/core/openapi/compile-document.js';
import { createHandlerMiddle, type FallbackMocker } from '../../../src/core/pipeline/run-handler.js';
import type { Answer, Plan } from '../../../src/core/pipeline/select-mount.js';
import type { ActionResult, SettledRequest } from '../../../src/core/state/state-store.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const compiled = compileDocument(defaultDocument);
const getPet = compiled.byId.get('getPet');
if (!getPet) throw new Error('openapi.yaml lost getPet');
const request: ValidRequest = { path: { petId: 3 }, query: {}, header: {}, body: undefined };

/** A store that holds Luna under id 3: what the state answers a `get` with. */
const luna: ActionResult = {
  revision: 7,
  items: undefined,
  item: { id: 3, name: 'Luna', categoryId: 1 },
  found: true,
};

const handlers: ItemHandlerTable = {
  getPet: {
    plan: (valid) => ({ op: 'get', collection: 'pets', id: valid.path.petId as number }),
    answer: (_valid, result) => ({ status: 200, body: result.item }),
  },
};

/** The middle's plan for the request (with a `Prefer` header, if given), then its answer given what the state did. */
async function run(options: {
  operation?: CompiledOperation;
  prefer?: string;
  handlers?: ItemHandlerTable;
  fallback?: FallbackMocker;
  result?: ActionResult;
}): Promise<{ plan: Plan; answer: Answer }> {
  const operation = options.operation ?? (getPet as CompiledOperation);
  const middle = createHandlerMiddle({ handlers: options.handlers ?? handlers, fallback: options.fallback });
  const input = {
    operation,
    request: {
      method: 'GET',
      path: '/v1/pets/3',
      query: '',
      headers: options.prefer === undefined ? {} : { prefer: options.prefer },
    },
    sent: undefined,
    classified: { valid: request } as never,
    findings: [],
  };
  const plan = middle.plan(input);
  if (plan.refusal) throw plan.refusal;
  const settled = { result: plan.action ? (options.result ?? luna) : undefined } as SettledRequest;
  return { plan, answer: await middle.answer(input, plan, settled) };
}

const response = (answer: Answer) => {
  if (answer.kind !== 'handled') throw new Error('not a handled answer');
  return answer.response;
};

describe('the mock’s middle (createHandlerMiddle)', () => {
  it('plans the handler’s store action, and answers from what the store did', async () => {
    const { plan, answer } = await run({});
    expect(plan.action).toEqual({ op: 'get', collection: 'pets', id: 3 });
    expect(response(answer)).toEqual({ status: 200, body: { id: 3, name: 'Luna', categoryId: 1 } });
  });

  it('answers the documented example for Prefer: code=, marked Preference-Applied, planning no store action', async () => {
    const { plan, answer } = await run({ prefer: 'code=404' });
    expect(plan.action).toBeUndefined();
    expect(response(answer)).toEqual({
      status: 404,
      headers: { 'preference-applied': 'code=404' },
      body: { code: 'pet_not_found', message: 'no pet has id 42', status: 404 },
    });
  });

  it('hands out a copy of the example, so that nothing can change the document’s', async () => {
    const first = response((await run({ prefer: 'code=200' })).answer);
    (first.body as { name: string }).name = 'changed';
    expect((response((await run({ prefer: 'code=200' })).answer).body as { name: string }).name).toBe('Bella');
  });

  it('refuses an example name the response does not have with 400 invalid_prefer naming the ones it has', async () => {
    const error = await run({ prefer: 'code=404, example=nope' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      code: 'invalid_prefer',
      message: 'Prefer example=nope is not an example of getPet 404 (examples: default)',
    });
  });

  it('plans a Prefer the operation cannot honour as a refusal, answered after the sunset', () => {
    const middle = createHandlerMiddle({ handlers, fallback: undefined });
    const plan = middle.plan({
      operation: getPet,
      request: { method: 'GET', path: '/v1/pets/3', query: '', headers: { prefer: 'code=418' } },
      sent: undefined,
      classified: { valid: request } as never,
      findings: [],
    });
    expect(plan.action).toBeUndefined();
    expect(plan.refusal).toMatchObject({ code: 'invalid_prefer' });
  });

  it('asks the fallback for a status without an example, and marks its answer too', async () => {
    const document = structuredClone(defaultDocument);
    const responses = document.paths['/pets/{petId}']?.get?.responses as Record<string, { content?: unknown }>;
    delete (responses['404'] as { content: { 'application/json': { example?: unknown } } }).content['application/json']
      .example;
    const operation = compileDocument(document).byId.get('getPet');
    if (!operation) throw new Error('no getPet');
    const asked: Array<number | undefined> = [];
    const fallback: FallbackMocker = async (_operation, _request, status) => {
      asked.push(status);
      return { status: status ?? 200, body: { code: 'made_up', message: 'by the fallback', status: 404 } };
    };
    const answered = response((await run({ operation, prefer: 'code=404', fallback })).answer);
    expect(asked).toEqual([404]);
    expect(answered.headers).toEqual({ 'preference-applied': 'code=404' });
    await expect(run({ operation, prefer: 'code=404' })).rejects.toMatchObject({
      code: 'invalid_prefer',
      message: 'Prefer code=404: getPet documents no example for that status to send',
    });
  });

  it('answers an operation without a handler from the fallback, or 501 not_implemented without one', async () => {
    const fallback: FallbackMocker = async () => ({ status: 200, body: { from: 'fallback' } });
    expect(response((await run({ handlers: {}, fallback })).answer)).toEqual({
      status: 200,
      body: { from: 'fallback' },
    });
    await expect(run({ handlers: {} })).rejects.toMatchObject({
      status: 501,
      code: 'not_implemented',
      message:
        'getPet (GET /pets/{petId}) has no behaviour of the kit: the model cannot place its kind (x-petstore-kind places it), and no fallback mocker is installed',
    });
  });
});

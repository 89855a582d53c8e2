import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import type { HandlerTable } from '../../../src/core/handlers/handler-types.js';
import type { ValidRequest } from '../../../src/core/types/valid-request.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { runHandler, type FallbackMocker } from '../../../src/core/pipeline/run-handler.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const compiled = compileDocument(defaultDocument);
const getPet = compiled.byId.get('getPet');
if (!getPet) throw new Error('openapi.yaml lost getPet');
const request: ValidRequest = { path: { petId: 3 }, query: {}, header: {}, body: undefined };

const handlers: HandlerTable<string> = {
  getPet: (valid, context) => ({ status: 200, body: { id: valid.path.petId, name: context, categoryId: 1 } }),
};

describe('runHandler', () => {
  it('answers with the operation’s handler, given the request and the context', async () => {
    const response = await runHandler({
      operation: getPet,
      request,
      preference: {},
      handlers,
      context: 'Luna',
      fallback: undefined,
    });
    expect(response).toEqual({ status: 200, body: { id: 3, name: 'Luna', categoryId: 1 } });
  });

  it('answers the documented example for Prefer: code=, marked Preference-Applied, without calling the handler', async () => {
    const called: string[] = [];
    const response = await runHandler({
      operation: getPet,
      request,
      preference: { status: 404 },
      handlers: { getPet: () => (called.push('handler'), { status: 200 }) },
      context: '',
      fallback: undefined,
    });
    expect(response).toEqual({
      status: 404,
      headers: { 'preference-applied': 'code=404' },
      body: { code: 'pet_not_found', message: 'no pet has id 42', status: 404 },
    });
    expect(called).toEqual([]);
  });

  it('hands out a copy of the example, so that nothing can change the document’s', async () => {
    const input = {
      operation: getPet,
      request,
      preference: { status: 200 },
      handlers,
      context: '',
      fallback: undefined,
    };
    const first = await runHandler(input);
    (first.body as { name: string }).name = 'changed';
    expect(((await runHandler(input)).body as { name: string }).name).toBe('Bella');
  });

  it('refuses an example name the response does not have with 400 invalid_prefer naming the ones it has', async () => {
    const error = await runHandler({
      operation: getPet,
      request,
      preference: { status: 404, example: 'nope' },
      handlers,
      context: '',
      fallback: undefined,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      code: 'invalid_prefer',
      message: 'Prefer example=nope is not an example of getPet 404 (examples: default)',
    });
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
    const response = await runHandler({
      operation,
      request,
      preference: { status: 404 },
      handlers,
      context: '',
      fallback,
    });
    expect(asked).toEqual([404]);
    expect(response.headers).toEqual({ 'preference-applied': 'code=404' });
    await expect(
      runHandler({ operation, request, preference: { status: 404 }, handlers, context: '', fallback: undefined }),
    ).rejects.toMatchObject({
      code: 'invalid_prefer',
      message: 'Prefer code=404: getPet documents no example for that status to send',
    });
  });

  it('answers an operation without a handler from the fallback, or 501 not_implemented without one', async () => {
    const fallback: FallbackMocker = async () => ({ status: 200, body: { from: 'fallback' } });
    const input = { operation: getPet, request, preference: {}, handlers: {}, context: '' };
    expect(await runHandler({ ...input, fallback })).toEqual({ status: 200, body: { from: 'fallback' } });
    await expect(runHandler({ ...input, fallback: undefined })).rejects.toMatchObject({
      status: 501,
      code: 'not_implemented',
      message:
        'getPet (GET /pets/{petId}) has no behaviour of the kit: the model cannot place its kind (x-petstore-kind places it), and no fallback mocker is installed',
    });
  });
});

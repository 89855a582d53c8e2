import { describe, expect, it } from 'vitest';
import { buildDreddPlan, type DreddPlanInput } from '../../src/contract/dredd-plan.js';
import { dreddRunProblems, type DreddHookResult } from '../../src/contract/dredd-verdict.js';
import type { ItemId } from '../../src/contract/exact-ids.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';
import { evolvedDocumentPath } from '../evolution/support/evolved-documents.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const ids = (existing: ItemId | undefined, unknown: ItemId, own?: (operationId: string) => ItemId | undefined) =>
  (({ operation }) => ({ existing, unknown, own: own?.(operation.operationId) })) satisfies DreddPlanInput['ids'];
const input: DreddPlanInput = {
  documentPath: defaultDocumentPath,
  basePath: '/v1',
  resultFile: '/tmp/result.json',
  judgeModule: '/tmp/dredd-judge.js',
  readOnly: false,
  ids: ids(7, 1_000_000_007),
  validBody: () => ({ name: 'contract-test-dredd-Bella', categoryId: 1 }),
};

function entry(name: string, plan = buildDreddPlan(compiled, input)) {
  const found = plan.entries.find((e) => e.name === name);
  if (!found) throw new Error(`no plan entry '${name}'`);
  return found;
}

describe('buildDreddPlan', () => {
  it('names one entry per documented response, as Dredd names its transactions', () => {
    expect(buildDreddPlan(compiled, input).entries.map((e) => e.name)).toEqual([
      '/pets > List animals > 200 > application/json',
      '/pets > List animals > 401 > application/json',
      '/pets > Add an animal > 201 > application/json',
      '/pets > Add an animal > 400 > application/json',
      '/pets > Add an animal > 401 > application/json',
      '/pets/{petId} > Get an animal > 200 > application/json',
      '/pets/{petId} > Get an animal > 401 > application/json',
      '/pets/{petId} > Get an animal > 404 > application/json',
    ]);
  });

  it('makes 401, 400 and 404 happen: no key, an invalid body, an unknown id', () => {
    expect(entry('/pets > List animals > 401 > application/json').auth).toBe('none');
    expect(entry('/pets > Add an animal > 400 > application/json')).toMatchObject({ auth: 'token', body: '{}' });
    expect(entry('/pets/{petId} > Get an animal > 404 > application/json')).toMatchObject({ uri: '/pets/1000000007' });
    expect(entry('/pets/{petId} > Get an animal > 200 > application/json')).toMatchObject({
      auth: 'token',
      uri: '/pets/7',
    });
  });

  it('requests ids beyond 2^53 exactly as they were listed', () => {
    const plan = buildDreddPlan(compiled, { ...input, ids: ids(9223372036854775807n, -9223372036854775808n) });
    expect(entry('/pets/{petId} > Get an animal > 200 > application/json', plan)).toMatchObject({
      uri: '/pets/9223372036854775807',
    });
    expect(entry('/pets/{petId} > Get an animal > 404 > application/json', plan).uri).toBe(
      '/pets/-9223372036854775808',
    );
    expect(JSON.stringify(plan)).toContain('"judgeModule":"/tmp/dredd-judge.js"');
  });

  it('gives self-contained draft-04 schemas, with Error.status pinned to the transaction status', () => {
    const plan = buildDreddPlan(compiled, input);
    for (const { schema = {} } of plan.entries) {
      expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
      expect(JSON.stringify(schema)).not.toMatch(/"\$ref"|"format":"int64"|"example"/);
    }
    const error = entry('/pets/{petId} > Get an animal > 404 > application/json').schema;
    expect(error).toMatchObject({
      required: ['code', 'message', 'status'],
      properties: { status: { type: 'integer', enum: [404] } },
    });
    const pet = entry('/pets/{petId} > Get an animal > 200 > application/json').schema;
    expect(pet?.allOf).toHaveLength(2);
  });

  it('sends no transaction whose method may write in read-only mode, with any key', () => {
    const plan = buildDreddPlan(compiled, { ...input, readOnly: true });
    for (const status of ['201', '400', '401'])
      expect(entry(`/pets > Add an animal > ${status} > application/json`, plan).skip).toMatch(/read-only mode: POST/);
    expect(plan.entries.filter((e) => !e.skip).map((e) => e.name)).toEqual([
      '/pets > List animals > 200 > application/json',
      '/pets > List animals > 401 > application/json',
      '/pets/{petId} > Get an animal > 200 > application/json',
      '/pets/{petId} > Get an animal > 401 > application/json',
      '/pets/{petId} > Get an animal > 404 > application/json',
    ]);
  });

  it('tells the hooks what each operation is, so that they keep the ids a create hands out', () => {
    expect(buildDreddPlan(compiled, input).entries.map((e) => `${e.operationId} ${e.kind}`)).toContain(
      'createPet create',
    );
  });

  describe('for a document with PUT and DELETE on an item', () => {
    const evolved = compileDocument(loadDocument(evolvedDocumentPath('with-replace-and-delete')));
    const own = (operationId: string) => ({ replacePet: 41, deletePet: 42 })[operationId];
    const plan = buildDreddPlan(evolved, { ...input, ids: ids(7, 1_000_000_007, own) });

    it('names a response without a body by its status alone, and gives it no schema', () => {
      expect(entry('/pets/{petId} > Delete an animal > 204', plan)).toMatchObject({ kind: 'delete', status: 204 });
      expect(entry('/pets/{petId} > Delete an animal > 204', plan).schema).toBeUndefined();
    });

    it('changes and deletes only items created for each operation, and sends its 401 to an id no item has', () => {
      expect(entry('/pets/{petId} > Replace an animal > 200 > application/json', plan).uri).toBe('/pets/41');
      expect(entry('/pets/{petId} > Replace an animal > 400 > application/json', plan)).toMatchObject({
        uri: '/pets/41',
        body: '{}',
      });
      expect(entry('/pets/{petId} > Delete an animal > 204', plan).uri).toBe('/pets/42');
      for (const name of [
        '/pets/{petId} > Replace an animal > 401 > application/json',
        '/pets/{petId} > Replace an animal > 404 > application/json',
        '/pets/{petId} > Delete an animal > 401 > application/json',
        '/pets/{petId} > Delete an animal > 404 > application/json',
      ])
        expect(entry(name, plan).uri, name).toBe('/pets/1000000007');
      // The listed item is only ever read.
      const listed = plan.entries.filter((e) => e.uri === '/pets/7');
      expect(listed.map((e) => e.kind)).toEqual(['read', 'read']);
    });

    it('skips a change it has no item of its own for, rather than change one the deployment held', () => {
      const without = buildDreddPlan(evolved, { ...input, ids: ids(7, 1_000_000_007) });
      expect(entry('/pets/{petId} > Delete an animal > 204', without).skip).toMatch(/no item could be created/);
      expect(entry('/pets/{petId} > Replace an animal > 200 > application/json', without).skip).toMatch(
        /no item could be created/,
      );
    });
  });
});

describe('dreddRunProblems', () => {
  const fine: DreddHookResult = {
    transactions: ['a'],
    unmatchedHooks: [],
    unplanned: [],
    executed: 1,
    failed: [],
    finished: true,
    createdIds: [],
    responses: [],
  };

  it('finds nothing wrong with a finished run of planned transactions', () => {
    expect(dreddRunProblems(fine, 'hooks.cjs')).toEqual([]);
  });

  it('fails a run whose hooks could not load the response rules', () => {
    expect(dreddRunProblems({ ...fine, judgeError: 'Cannot find module' }, 'h')).toEqual([
      'the Dredd hooks could not load the response rules: Cannot find module',
    ]);
  });

  it('fails a run whose hooks never loaded', () => {
    expect(dreddRunProblems(undefined, 'hooks.cjs')).toEqual(['the Dredd hooks did not run (is hooks.cjs loadable?)']);
  });

  it('fails a run where zero transactions ran', () => {
    expect(dreddRunProblems({ ...fine, executed: 0 }, 'h')).toEqual(['zero transactions ran']);
  });

  it('fails a run where a hook name matches no transaction, or a transaction has no hook', () => {
    expect(
      dreddRunProblems(
        {
          ...fine,
          unmatchedHooks: ['/pets > Old name > 200 > application/json'],
          unplanned: ['/pets > New > 200 > application/json'],
        },
        'h',
      ),
    ).toEqual([
      "hook '/pets > Old name > 200 > application/json' matches no Dredd transaction",
      "transaction '/pets > New > 200 > application/json' has no hook",
    ]);
  });

  it('fails a run that stopped early or had a failed transaction, whatever Dredd exited with', () => {
    expect(dreddRunProblems({ ...fine, finished: false, failed: ['x'] }, 'h')).toEqual([
      'the Dredd run stopped before its end (the afterAll hook never ran)',
      "transaction 'x' failed",
    ]);
  });
});

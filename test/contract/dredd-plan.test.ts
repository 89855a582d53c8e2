import { describe, expect, it } from 'vitest';
import { buildDreddPlan, type DreddPlanInput } from '../../src/contract/dredd-plan.js';
import { dreddRunProblems, type DreddHookResult } from '../../src/contract/dredd-verdict.js';
import { compileDocument } from '../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const compiled = compileDocument(loadDocument(defaultDocumentPath));
const input: DreddPlanInput = {
  basePath: '/v1',
  resultFile: '/tmp/result.json',
  judgeModule: '/tmp/dredd-judge.js',
  readOnly: false,
  existingId: 7,
  unknownId: 1_000_000_007,
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
    const plan = buildDreddPlan(compiled, {
      ...input,
      existingId: 9223372036854775807n,
      unknownId: -9223372036854775808n,
    });
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
    for (const { schema } of plan.entries) {
      expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
      expect(JSON.stringify(schema)).not.toMatch(/"\$ref"|"format":"int64"|"example"/);
    }
    const error = entry('/pets/{petId} > Get an animal > 404 > application/json').schema;
    expect(error).toMatchObject({
      required: ['code', 'message', 'status'],
      properties: { status: { type: 'integer', enum: [404] } },
    });
    const pet = entry('/pets/{petId} > Get an animal > 200 > application/json').schema;
    expect(pet.allOf).toHaveLength(2);
  });

  it('skips the writing transaction in read-only mode and sends an unstorable body without a key', () => {
    const plan = buildDreddPlan(compiled, { ...input, readOnly: true });
    expect(entry('/pets > Add an animal > 201 > application/json', plan).skip).toMatch(/read-only/);
    expect(entry('/pets > Add an animal > 401 > application/json', plan).body).toBe('{}');
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

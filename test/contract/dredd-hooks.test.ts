import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DreddPlan } from '../../src/contract/dredd-plan.js';
import type { DreddHookResult } from '../../src/contract/dredd-verdict.js';
import { dreddHooksPath } from '../../src/contract/dredd-hooks-path.js';
import { packageRoot } from '../../src/package-root.js';
import { evolvedDocumentPath } from '../evolution/support/evolved-documents.js';

type Hook = (data: unknown, done?: () => void) => void;
interface Registered {
  all: Record<string, Hook[]>;
  named: Record<string, Record<string, Hook[]>>;
}

const token = 'hooks-secret-91c2';
const workDir = mkdtempSync(join(tmpdir(), 'dredd-hooks-test-'));
const pet = { type: 'object' };
const plan: DreddPlan = {
  // A document with a DELETE beside the kit's operations: the hooks' judge reads the plan's document.
  documentPath: evolvedDocumentPath('with-replace-and-delete'),
  basePath: '/v1',
  resultFile: join(workDir, 'result.json'),
  // Built by the test run's global setup, as the runner uses it.
  judgeModule: join(packageRoot, 'dist', 'contract', 'dredd-judge.js'),
  entries: [
    { name: 'A > 200', operationId: 'getPet', kind: 'read', status: 200, auth: 'token', uri: '/pets/7', schema: pet },
    { name: 'A > 401', operationId: 'getPet', kind: 'read', status: 401, auth: 'none', schema: pet },
    {
      name: 'B > 201',
      operationId: 'createPet',
      kind: 'create',
      status: 201,
      auth: 'token',
      skip: 'read-only',
      schema: {},
    },
    { name: 'C > 201', operationId: 'createPet', kind: 'create', status: 201, auth: 'token', body: '{}', schema: {} },
    { name: 'E > 204', operationId: 'deletePet', kind: 'delete', status: 204, auth: 'token', uri: '/pets/9' },
  ],
};
const registered: Registered = { all: {}, named: {} };

/** Loads the hook file the way Dredd does: with `require('hooks')` answered by a recording stand-in. */
function loadHooks(): void {
  const on = (kind: string) => (fn: Hook) => void (registered.all[kind] ??= []).push(fn);
  const onNamed = (kind: string) => (name: string, fn: Hook) =>
    void ((registered.named[kind] ??= {})[name] ??= []).push(fn);
  const fake = {
    beforeAll: on('beforeAll'),
    beforeEach: on('beforeEach'),
    beforeEachValidation: on('beforeEachValidation'),
    afterEach: on('afterEach'),
    afterAll: on('afterAll'),
    before: onNamed('before'),
    beforeValidation: onNamed('beforeValidation'),
  };
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function load(request: string, ...rest: unknown[]) {
    return request === 'hooks' ? fake : original.call(this, request, ...rest);
  };
  try {
    createRequire(import.meta.url)(dreddHooksPath);
  } finally {
    loader._load = original;
  }
}

/** Calls the hooks as Dredd does: with one argument, or with two (a callback) for an asynchronous hook. */
async function run(kind: string, data: unknown, name?: string): Promise<void> {
  const hooks = name === undefined ? registered.all[kind] : registered.named[kind]?.[name];
  for (const hook of hooks ?? []) {
    expect([1, 2], `Dredd only calls hooks taking 1 or 2 arguments (${kind})`).toContain(hook.length);
    if (hook.length === 2) await new Promise<void>((done) => hook(data, done));
    else hook(data);
  }
}

function transaction(
  name: string,
  real: { statusCode: number; headers: Record<string, string>; body: string } = {
    statusCode: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"id":7,"name":"Rex","categoryId":1}',
  },
  uri = '/pets/7',
) {
  return {
    name,
    request: {
      uri,
      headers: { 'User-Agent': 'Dredd', Authorization: 'stale' } as Record<string, string>,
      body: '',
    },
    expected: {} as Record<string, unknown>,
    real,
    fullPath: `/v1${uri}`,
    skip: false,
    fail: undefined as unknown,
    test: { valid: true },
  };
}

function result(): DreddHookResult {
  return JSON.parse(readFileSync(plan.resultFile, 'utf8')) as DreddHookResult;
}

beforeAll(() => {
  const planFile = join(workDir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  process.env.PETSTORE_DREDD_PLAN = planFile;
  process.env.CONTRACT_TOKEN = token;
  process.env.PETSTORE_DREDD_HEADERS = JSON.stringify({ 'petstore-session': 'w1', 'x-api-key': 'k-123' });
  process.env.PETSTORE_DREDD_SECRET_HEADERS = JSON.stringify(['x-api-key']);
  loadHooks();
});

afterAll(() => {
  for (const name of [
    'PETSTORE_DREDD_PLAN',
    'CONTRACT_TOKEN',
    'PETSTORE_DREDD_HEADERS',
    'PETSTORE_DREDD_SECRET_HEADERS',
  ]) {
    delete process.env[name];
  }
  rmSync(workDir, { recursive: true, force: true });
});

describe('contracts/dredd-hooks.cjs', () => {
  it('records hook names that match no transaction and transactions that have no hook, and loads the response rules', async () => {
    await run('beforeAll', [{ name: 'A > 200' }, { name: 'A > 401' }, { name: 'C > 201' }, { name: 'D > 200' }]);
    expect(result()).toMatchObject({
      unmatchedHooks: ['B > 201', 'E > 204'],
      unplanned: ['D > 200'],
      finished: false,
    });
    expect(result().judgeError).toBeUndefined();
  });

  it('fails a transaction that has no hook', async () => {
    const t = transaction('D > 200');
    await run('beforeEach', t);
    expect(t.fail).toMatch(/no hook for transaction 'D > 200'/);
  });

  it('sends the key from the environment, the extra headers and the planned path', async () => {
    const t = transaction('A > 200');
    await run('before', t, 'A > 200');
    expect(t.request.headers).toMatchObject({
      Authorization: `Bearer ${token}`,
      'petstore-session': 'w1',
      'x-api-key': 'k-123',
    });
    expect(t.request.uri).toBe('/pets/7');
    expect(t.fullPath).toBe('/v1/pets/7');
  });

  it('sends no Authorization header where the plan wants a 401', async () => {
    const t = transaction('A > 401');
    await run('before', t, 'A > 401');
    expect(Object.keys(t.request.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
  });

  it('skips what the plan skips', async () => {
    const t = transaction('B > 201');
    await run('before', t, 'B > 201');
    expect(t.skip).toBe(true);
  });

  it('sets the compiled schema as the expected body schema and normalises the JSON charset', async () => {
    const t = transaction('A > 200');
    await run('beforeEachValidation', t);
    await run('beforeValidation', t, 'A > 200');
    expect(t.expected.bodySchema).toEqual(pet);
    expect(t.real.headers['content-type']).toBe('application/json');
    expect(t.fail).toBeUndefined();
  });

  it('fails a body that only an exact reading shows wrong: an integer written 1.0', async () => {
    const t = transaction('A > 200', {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"id":7,"name":"Rex","categoryId":1.0}',
    });
    await run('beforeValidation', t, 'A > 200');
    expect(t.fail).toBe(
      'the 200 body does not match the documented schema: response field \'categoryId\' must be integer (1.0 is written as a decimal) (body: {"id":7,"name":"Rex","categoryId":1.0})',
    );
  });

  it('fails a 200 whose pet is not the one asked for, comparing ids exactly beyond 2^53', async () => {
    const t = transaction('A > 200', {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"id":9007199254740993,"name":"Rex","categoryId":1}',
    });
    await run('beforeValidation', t, 'A > 200');
    expect(t.fail).toBe('getPet 7 answered the item whose id is 9007199254740993');
  });

  it('records the id of a created pet exactly', async () => {
    const t = transaction(
      'C > 201',
      {
        statusCode: 201,
        headers: { 'content-type': 'application/json' },
        body: '{"id":9223372036854775807,"name":"Rex","categoryId":-9223372036854775808}',
      },
      '/pets',
    );
    t.request.body = '{"name":"Rex","categoryId":-9223372036854775808}';
    await run('beforeValidation', t, 'C > 201');
    expect(t.fail).toBeUndefined();
    await run('afterEach', t);
    expect(result().createdIds).toEqual(['9223372036854775807']);
  });

  it('gives Dredd no body schema for a response documented without a body, and passes an empty 204', async () => {
    const t = transaction('E > 204', { statusCode: 204, headers: {}, body: '' }, '/pets/9');
    await run('before', t, 'E > 204');
    await run('beforeValidation', t, 'E > 204');
    expect(t.expected.bodySchema).toBeUndefined();
    expect(t.fail).toBeUndefined();
    await run('afterEach', t);
  });

  it('keeps only the ids a create hands out (by the kind the plan gives), not those of other answers', async () => {
    const t = transaction('A > 200', {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"id":7,"name":"Rex","categoryId":1}',
    });
    await run('beforeValidation', t, 'A > 200');
    expect(t.fail).toBeUndefined();
    await run('afterEach', t);
    expect(result().createdIds).toEqual(['9223372036854775807']);
  });

  it('redacts the key and credential headers before reporters print the request, and counts what ran and failed', async () => {
    const t = transaction('A > 200');
    await run('before', t, 'A > 200');
    t.test.valid = false;
    await run('afterEach', t);
    expect(JSON.stringify(t.request)).not.toContain(token);
    expect(t.request.headers).toMatchObject({
      Authorization: 'Bearer [redacted]',
      'x-api-key': '[redacted]',
      'petstore-session': 'w1',
    });
    await run('afterAll', []);
    expect(result()).toMatchObject({ executed: 4, failed: ['A > 200'], finished: true });
    expect(result().responses).toContainEqual({ operationId: 'createPet', status: 201 });
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DreddPlan } from '../../src/contract/dredd-plan.js';
import type { DreddHookResult } from '../../src/contract/dredd-verdict.js';
import { dreddHooksPath } from '../../src/contract/dredd-hooks-path.js';

type Hook = (data: unknown) => void;
interface Registered {
  all: Record<string, Hook[]>;
  named: Record<string, Record<string, Hook[]>>;
}

const token = 'hooks-secret-91c2';
const workDir = mkdtempSync(join(tmpdir(), 'dredd-hooks-test-'));
const plan: DreddPlan = {
  basePath: '/v1',
  resultFile: join(workDir, 'result.json'),
  entries: [
    { name: 'A > 200', operationId: 'getPet', status: 200, auth: 'token', uri: '/pets/7', schema: { type: 'object' } },
    { name: 'A > 401', operationId: 'getPet', status: 401, auth: 'none', schema: { type: 'object' } },
    { name: 'B > 201', operationId: 'createPet', status: 201, auth: 'token', skip: 'read-only', schema: {} },
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

function run(kind: string, data: unknown, name?: string): void {
  const hooks = name === undefined ? registered.all[kind] : registered.named[kind]?.[name];
  for (const hook of hooks ?? []) {
    expect(hook.length, `Dredd only calls hooks taking 1 or 2 arguments (${kind})`).toBe(1);
    hook(data);
  }
}

function transaction(name: string) {
  return {
    name,
    request: {
      uri: '/pets/1',
      headers: { 'User-Agent': 'Dredd', Authorization: 'stale' } as Record<string, string>,
      body: '',
    },
    expected: {} as Record<string, unknown>,
    real: { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"id":7}' },
    fullPath: '/v1/pets/1',
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
  loadHooks();
});

afterAll(() => {
  delete process.env.PETSTORE_DREDD_PLAN;
  delete process.env.CONTRACT_TOKEN;
  rmSync(workDir, { recursive: true, force: true });
});

describe('contracts/dredd-hooks.cjs', () => {
  it('records hook names that match no transaction and transactions that have no hook', () => {
    run('beforeAll', [{ name: 'A > 200' }, { name: 'A > 401' }, { name: 'C > 200' }]);
    expect(result()).toMatchObject({ unmatchedHooks: ['B > 201'], unplanned: ['C > 200'], finished: false });
  });

  it('fails a transaction that has no hook', () => {
    const t = transaction('C > 200');
    run('beforeEach', t);
    expect(t.fail).toMatch(/no hook for transaction 'C > 200'/);
  });

  it('sends the key from the environment and the planned path', () => {
    const t = transaction('A > 200');
    run('before', t, 'A > 200');
    expect(t.request.headers.Authorization).toBe(`Bearer ${token}`);
    expect(t.request.uri).toBe('/pets/7');
    expect(t.fullPath).toBe('/v1/pets/7');
  });

  it('sends no Authorization header where the plan wants a 401', () => {
    const t = transaction('A > 401');
    run('before', t, 'A > 401');
    expect(Object.keys(t.request.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
  });

  it('skips what the plan skips', () => {
    const t = transaction('B > 201');
    run('before', t, 'B > 201');
    expect(t.skip).toBe(true);
  });

  it('sets the compiled schema as the expected body schema and normalises the JSON charset', () => {
    const t = transaction('A > 200');
    run('beforeEachValidation', t);
    run('beforeValidation', t, 'A > 200');
    expect(t.expected.bodySchema).toEqual({ type: 'object' });
    expect(t.real.headers['content-type']).toBe('application/json');
  });

  it('redacts the key before reporters print the request, and counts what ran and failed', () => {
    const t = transaction('A > 200');
    run('before', t, 'A > 200');
    t.test.valid = false;
    run('afterEach', t);
    expect(JSON.stringify(t.request)).not.toContain(token);
    expect(t.request.headers.Authorization).toBe('Bearer [REDACTED]');
    run('afterAll', []);
    expect(result()).toMatchObject({ executed: 1, failed: ['A > 200'], finished: true });
  });
});

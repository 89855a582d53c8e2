import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import type { OpenAPIV3 } from 'openapi-types';
import { afterAll, describe, expect, it } from 'vitest';
import { compileAdminDocument } from '../src/core/admin/compile-admin-document.js';
import { NumberLiteral, stringifyJson } from '../src/core/json/exact-json.js';
import { compileDocument, type CompiledDocument } from '../src/core/openapi/compile-document.js';
import { hashText, precompiledFor, type PrecompiledValidators } from '../src/core/openapi/precompiled-validators.js';
import { createMock } from '../src/create-mock.js';
import { defaultDocument, defaultDocumentJson } from '../src/generated/default-document.js';
import { defaultApiValidators } from '../src/generated/default-validators.js';
import { precompileValidators } from '../src/precompile-validators.js';
import { runTimeCompiler } from '../src/run-time-compiler.js';
import { loadDocument } from '../src/node/load-document.js';
import { packageRoot } from '../src/package-root.js';

const devKey = { authorization: 'Bearer dev-key', 'content-type': 'application/json' };
const folder = mkdtempSync(join(tmpdir(), 'petstore-precompiled-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What `petstore-kit precompile` writes for a document, imported as a user's bundle would import it. */
async function precompiled(document: OpenAPIV3.Document, name: string): Promise<PrecompiledValidators> {
  const file = join(folder, `${name}.js`);
  writeFileSync(file, precompileValidators(document, { source: `${name}.yaml` }));
  const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
    default: PrecompiledValidators;
    document: OpenAPIV3.Document;
  };
  // The module carries the document it was made from, exact integers included.
  expect(module.document).toEqual(document);
  return module.default;
}

/** Every validator of a compiled document: parameters by location, bodies and responses by media type. */
function validatorsOf(compiled: CompiledDocument): Array<[string, ValidateFunction]> {
  return compiled.operations.flatMap((operation) => [
    ...Object.entries(operation.parameterValidators).map(
      ([location, validate]) => [`${operation.operationId} ${location}`, validate] as [string, ValidateFunction],
    ),
    ...[...(operation.requestBody?.validators ?? [])].map(
      ([type, validate]) => [`${operation.operationId} body ${type}`, validate] as [string, ValidateFunction],
    ),
    ...[...operation.responses.values()].flatMap((response) =>
      [...response.validators].map(
        ([type, validate]) =>
          [`${operation.operationId} ${response.status} ${type}`, validate] as [string, ValidateFunction],
      ),
    ),
  ]);
}

/** Values a validator meets: anything JSON holds, pets right and wrong, and the exact numbers the kit parses. */
const values = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      id: fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), fc.string()),
      name: fc.oneof(fc.string(), fc.integer()),
      categoryId: fc.oneof(
        fc.integer(),
        fc.constantFrom(new NumberLiteral('1.0'), new NumberLiteral('9223372036854775808'), 9007199254740993n),
      ),
      status: fc.constantFrom('available', 'pending', 'sold', 'lost', 3),
      limit: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.string()),
      code: fc.string(),
      message: fc.string(),
      now: fc.oneof(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        fc.string(),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.array(fc.record({ id: fc.integer(), name: fc.string(), categoryId: fc.integer() }, { requiredKeys: [] })),
);

/** What a validator says of a value: its verdict and its errors, which the Error bodies are made of. */
function verdict(validate: ValidateFunction, value: unknown): unknown {
  const valid = validate(value);
  return { valid, errors: validate.errors ?? null };
}

describe('the kit’s own validators, compiled ahead by npm run generate', () => {
  // createMock made the built-in validators known: compiled as a mock compiles it, then again with Ajv.
  createMock();
  const builtIn = compileDocument(defaultDocument, 'openapi.yaml');
  const atRunTime = compileDocument(defaultDocument, 'openapi.yaml', { precompiled: false });

  it('are what a mock of the kit’s document uses, and Ajv compiles none of them', () => {
    const precompiledCount = validatorsOf(builtIn).filter(([, validate]) => !('schemaEnv' in validate)).length;
    expect(precompiledCount).toBe(validatorsOf(builtIn).length);
    expect(validatorsOf(atRunTime).every(([, validate]) => 'schemaEnv' in validate)).toBe(true);
  });

  it('include the admin API’s, imported with its document, of which Ajv compiles none either', async () => {
    const admin = validatorsOf(await compileAdminDocument(builtIn));
    expect(admin.length).toBeGreaterThan(20);
    expect(admin.filter(([, validate]) => 'schemaEnv' in validate).map(([name]) => name)).toEqual([]);
  });

  it('are found by the document’s exact JSON, generated with them, without hashing it; another text finds none', () => {
    expect(defaultDocumentJson).toBe(stringifyJson(defaultDocument));
    expect(hashText(defaultDocumentJson)).toBe(defaultApiValidators.hash);
    expect(precompiledFor(defaultDocumentJson)).toBeDefined();
    expect(precompiledFor(defaultDocumentJson.replace('"3.0.3"', '"3.0.2"'))).toBeUndefined();
  });

  it('judge every value as the validators Ajv compiles at run time do, errors included', () => {
    const pairs = validatorsOf(builtIn).map(([name, validate], index) => ({
      name,
      ahead: validate,
      now: validatorsOf(atRunTime)[index]?.[1] as ValidateFunction,
    }));
    expect(pairs.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(fc.constantFrom(...pairs), values, ({ ahead, now }, value) => {
        expect(verdict(ahead, value)).toEqual(verdict(now, value));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('validators precompiled from a document of your own', () => {
  const own = loadDocument(join(packageRoot, 'test/evolution/documents/with-replace-and-delete.yaml'));

  it('serve its mock, refusing what the document forbids as the run-time validators do', async () => {
    const validators = await precompiled(own, 'own');
    const mock = createMock({
      document: own,
      validators,
      kitFixtures: false,
      fixtures: { default: { description: 'none' } },
    });
    const send = (method: string, path: string, body?: string) =>
      mock.fetch(new Request(`http://mock.test/v1${path}`, { method, headers: devKey, body }));
    expect((await send('POST', '/pets', '{"name":"Rex","categoryId":9223372036854775807}')).status).toBe(201);
    const refused = await send('POST', '/pets', '{"name":"Rex","categoryId":9223372036854775808}');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'invalid_body' });
    expect((await send('PUT', '/pets/1', '{"name":"Rex","categoryId":2}')).status).toBe(200);
    expect(mock.compiled.validateError).not.toHaveProperty('schemaEnv');
  });

  it('are refused for another version of the document, naming the command that makes them again', async () => {
    const validators = await precompiled(own, 'own-then');
    const changed = { ...own, info: { ...own.info, version: '2.0.0' } };
    expect(() => createMock({ document: changed, validators, kitFixtures: false })).toThrow(
      /precompiled from own-then\.yaml as it was then, not from this document: precompile them again \(npx petstore-kit precompile\)/,
    );
  });

  it('are refused in a layout this kit does not read', async () => {
    const validators = { ...(await precompiled(own, 'own-layout')), version: 2 } as unknown as PrecompiledValidators;
    expect(() => createMock({ document: own, validators, kitFixtures: false })).toThrow(
      /precompiled in layout 2, and this kit reads layout 1/,
    );
  });

  it('keep bounds beyond 2^53 exact in the code they are written as', async () => {
    const bounded = structuredClone(own) as OpenAPIV3.Document;
    const newPet = bounded.components?.schemas?.NewPet as OpenAPIV3.SchemaObject;
    Object.assign(newPet.properties?.categoryId as object, { minimum: 9007199254740993n, maximum: 9007199254740995n });
    const validators = await precompiled(bounded, 'bounded');
    const mock = createMock({
      document: bounded,
      validators,
      kitFixtures: false,
      fixtures: { default: { description: 'none' } },
    });
    const create = (categoryId: string) =>
      mock.fetch(
        new Request('http://mock.test/v1/pets', {
          method: 'POST',
          headers: devKey,
          body: `{"name":"Rex","categoryId":${categoryId}}`,
        }),
      );
    expect((await create('9007199254740992')).status).toBe(400);
    expect((await create('9007199254740993')).status).toBe(201);
    expect((await create('9007199254740995')).status).toBe(201);
    expect((await create('9007199254740996')).status).toBe(400);
  });
});

describe('a document of your own without precompiled validators', () => {
  it('is compiled at run time in Node, and with the run-time compiler given where the kit cannot load Ajv', async () => {
    const own = loadDocument(join(packageRoot, 'test/evolution/documents/without-get-pet.yaml'));
    for (const mock of [createMock({ document: own }), createMock({ document: own, validators: runTimeCompiler })]) {
      expect(mock.compiled.validateError).toHaveProperty('schemaEnv');
      const response = await mock.fetch(new Request('http://mock.test/v1/pets', { headers: devKey }));
      expect(response.status).toBe(200);
    }
  });
});

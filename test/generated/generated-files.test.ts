import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument as parseYaml, stringify } from 'yaml';
import ts from 'typescript';
import { generatedFiles, projectRoot } from '../../scripts/generated-files.js';
import { kitDocument } from '../support/behaviour-subject.js';
import { kitCollection } from '../support/kit-scenarios.js';

// What the tests expect of the generated files, read from the kit's document through the model.
const facts = kitDocument.facts;
const kitResource = facts.resource(kitCollection);
/** The int64 fields of the kit's items, the id among them, and the item path's parameter. */
const int64Fields = kitResource.writable.filter((field) => field.format === 'int64').map((field) => field.name);
/** The schema a create's body refers to (`NewPet`), where a new property would go. */
const createBodySchema = (() => {
  const create = kitResource.create;
  const item = create ? (facts.document.paths[create.path] as Record<string, { requestBody?: unknown }>) : undefined;
  const body = item?.[create?.method.toLowerCase() ?? '']?.requestBody as
    { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
  const ref = body?.content?.['application/json']?.schema?.$ref;
  if (!ref?.startsWith('#/components/schemas/')) throw new Error('the kit’s create body is no named schema');
  return ref.slice('#/components/schemas/'.length);
})();

let tempDir: string;
beforeAll(() => {
  tempDir = mkdtempSync(join(tmpdir(), 'petstore-generated-'));
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

const byName = (files: Array<{ path: string; text: string }>) =>
  Object.fromEntries(files.map((file) => [file.path.split('/').pop() as string, file.text]));

describe('src/generated/', () => {
  it('holds exactly what `npm run generate` makes from openapi.yaml and fixtures/ now', async () => {
    for (const file of await generatedFiles()) {
      expect(readFileSync(file.path, 'utf8'), `${file.path} is stale: run npm run generate`).toBe(file.text);
    }
  });

  it('types int64 fields as number | bigint, as the runtime holds them', async () => {
    const types = byName(await generatedFiles())['openapi-types.ts'] as string;
    expect(int64Fields.length).toBeGreaterThan(0);
    for (const name of [...int64Fields, kitResource.idField, kitResource.idParameter]) {
      expect(types).toContain(`${name}: number | bigint;`);
    }
  });

  it("types the app's forms with every integer a number, as JSON.parse gives them", async () => {
    const types = byName(await generatedFiles())['openapi-parsed-types.ts'] as string;
    for (const name of [...int64Fields, kitResource.idField]) expect(types).toContain(`${name}: number;`);
    expect(types).not.toContain('bigint');
  });

  it(`makes the default scenario’s ${kitResource.name} ahead, for the default --pets and --seed`, async () => {
    const made = byName(await generatedFiles())['default-scenario-items.ts'] as string;
    expect(made).toContain('"count": 50,');
    expect(made).toContain('"seed": 1,');
    expect(made.match(new RegExp(`"${kitResource.idField}": \\d+,`, 'g'))).toHaveLength(50);
  });

  it('would be reported stale once the document changes, so the check above can fail', async () => {
    const document = parseYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8'));
    document.setIn(['components', 'schemas', createBodySchema, 'properties', 'nickname'], { type: 'string' });
    const changed = join(tempDir, 'changed.yaml');
    writeFileSync(changed, stringify(document));
    const files = byName(await generatedFiles({ documentPath: changed }));
    expect(files['openapi-types.ts']).toContain('nickname?: string;');
    expect(files['default-document.ts']).toContain('"nickname"');
    expect(readFileSync(join(projectRoot, 'src/generated/openapi-types.ts'), 'utf8')).not.toContain('nickname');
  });

  it('would be reported stale once a fixture changes, with its integers exact', async () => {
    const fixtures = join(tempDir, 'fixtures');
    cpSync(join(projectRoot, 'fixtures'), fixtures, { recursive: true });
    const fields = Object.entries(kitResource.newItem()).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
    writeFileSync(
      join(fixtures, 'huge.yaml'),
      `description: huge\n${kitCollection}:\n  - { ${kitResource.idField}: 9223372036854775807, ${fields.join(', ')} }\n`,
    );
    const files = byName(await generatedFiles({ fixturesDir: fixtures }));
    expect(files['default-fixtures.ts']).toContain(`"${kitResource.idField}": 9223372036854775807n`);
  });
});

describe('the kinds of the kit’s own operations', () => {
  it('are generated as the model infers them from openapi.yaml', async () => {
    const kinds = byName(await generatedFiles())['operation-kinds.ts'] as string;
    expect(facts.api.operations.length).toBeGreaterThan(0);
    for (const { operation, kind } of facts.api.operations) {
      expect(kinds).toContain(`${JSON.stringify(operation.operationId)}: ${JSON.stringify(kind)}`);
    }
  });

  it('make tsc name an operation added to the document that the kit cannot serve', async () => {
    // An operation the model cannot place (a POST without a body), as someone might add to openapi.yaml.
    const document = parseYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8'));
    expect(Object.keys(facts.document.paths)).not.toContain('/reports');
    document.setIn(['paths', '/reports'], {
      post: {
        operationId: 'sendReport',
        summary: 'Send a report',
        tags: (facts.document.tags ?? []).slice(0, 1).map((tag) => tag.name),
        responses: {
          '202': { description: 'Accepted' },
          '401': { $ref: '#/components/responses/Unauthorized' },
        },
      },
    });
    const grown = join(tempDir, 'grown.yaml');
    writeFileSync(grown, stringify(document));
    const files = byName(await generatedFiles({ documentPath: grown }));
    expect(files['operation-kinds.ts']).toContain('"sendReport": "other"');
    // The handler table's type over those generated files, as src/core/handlers/item-handlers.ts declares it.
    const project = mkdtempSync(join(tempDir, 'tsc-'));
    writeFileSync(join(project, 'openapi-types.ts'), files['openapi-types.ts'] as string);
    writeFileSync(join(project, 'operation-kinds.ts'), files['operation-kinds.ts'] as string);
    const kindModule = join(projectRoot, 'src', 'core', 'model', 'operation-kind.js');
    writeFileSync(
      join(project, 'table.ts'),
      `import type { operations } from './openapi-types.js';
import { operationKinds } from './operation-kinds.js';
import type { ServableKind } from ${JSON.stringify(kindModule)};
export const kitKinds: { readonly [Id in keyof operations]: ServableKind } = operationKinds;
`,
    );
    const program = ts.createProgram([join(project, 'table.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
    });
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(messages.join('\n')).toMatch(/sendReport[\s\S]*"other"[\s\S]*not assignable to type 'ServableKind'/);
    // The kit's own document compiles the same declaration without a word.
    const kitProgram = ts.createProgram([join(projectRoot, 'src', 'core', 'handlers', 'item-handlers.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
    });
    expect(ts.getPreEmitDiagnostics(kitProgram).map((diagnostic) => diagnostic.messageText)).toEqual([]);
    // Two whole-program type checks: seconds each, more on a busy machine.
  }, 120_000);
});

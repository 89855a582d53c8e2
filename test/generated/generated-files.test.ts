import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument as parseYaml, stringify } from 'yaml';
import ts from 'typescript';
import { generatedFiles, projectRoot } from '../../scripts/generated-files.js';

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
    expect(types).toContain('categoryId: number | bigint;');
    expect(types).toContain('id: number | bigint;');
    expect(types).toContain('petId: number | bigint;');
  });

  it("types the app's forms with every integer a number, as JSON.parse gives them", async () => {
    const types = byName(await generatedFiles())['openapi-parsed-types.ts'] as string;
    expect(types).toContain('categoryId: number;');
    expect(types).toContain('id: number;');
    expect(types).not.toContain('bigint');
  });

  it('makes the default scenario’s pets ahead, for the default --pets and --seed', async () => {
    const pets = byName(await generatedFiles())['default-scenario-pets.ts'] as string;
    expect(pets).toContain('"count": 50,');
    expect(pets).toContain('"seed": 1,');
    expect(pets.match(/"id": \d+,/g)).toHaveLength(50);
  });

  it('would be reported stale once the document changes, so the check above can fail', async () => {
    const document = parseYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8'));
    document.setIn(['components', 'schemas', 'NewPet', 'properties', 'nickname'], { type: 'string' });
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
    writeFileSync(
      join(fixtures, 'huge.yaml'),
      'description: huge\npets:\n  - { id: 9223372036854775807, name: Max, categoryId: 1 }\n',
    );
    const files = byName(await generatedFiles({ fixturesDir: fixtures }));
    expect(files['default-fixtures.ts']).toContain('"id": 9223372036854775807n');
  });
});

describe('the kinds of the kit’s own operations', () => {
  it('are generated as the model infers them from openapi.yaml', async () => {
    const kinds = byName(await generatedFiles())['operation-kinds.ts'] as string;
    expect(kinds).toContain('"listPets": "list"');
    expect(kinds).toContain('"createPet": "create"');
    expect(kinds).toContain('"getPet": "read"');
  });

  it('make tsc name an operation added to the document that the kit cannot serve', async () => {
    // An operation the model cannot place (a POST without a body), as someone might add to openapi.yaml.
    const document = parseYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8'));
    document.setIn(['paths', '/reports'], {
      post: {
        operationId: 'sendReport',
        summary: 'Send a report',
        tags: ['pets'],
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
  });
});

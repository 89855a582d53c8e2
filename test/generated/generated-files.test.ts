import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument as parseYaml, stringify } from 'yaml';
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

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument as parseYaml, stringify } from 'yaml';
import { defaultDocumentPath } from '../../src/package-root.js';
import { checkGeneratedTypes } from '../support/openapi-types.js';

let tempDir: string;

beforeAll(() => {
  tempDir = mkdtempSync(join(tmpdir(), 'petstore-types-'));
});

afterAll(() => {
  rmSync(tempDir, { recursive: true, force: true });
});

describe('src/generated/openapi-types.ts', () => {
  it('is exactly what openapi-typescript generates from openapi.yaml now (run `npm run types` if not)', async () => {
    const { upToDate, generated, committed } = await checkGeneratedTypes(defaultDocumentPath);
    expect(generated).toBe(committed);
    expect(upToDate).toBe(true);
  });

  it('is still reported up to date for an unchanged copy of the document in another folder', async () => {
    const copyPath = join(tempDir, 'copy.yaml');
    writeFileSync(copyPath, stringify(parseYaml(readFileSync(defaultDocumentPath, 'utf8'))));
    expect((await checkGeneratedTypes(copyPath)).upToDate).toBe(true);
  });

  it('is reported stale once the document changes, so the check above can fail', async () => {
    const document = parseYaml(readFileSync(defaultDocumentPath, 'utf8'));
    document.setIn(['components', 'schemas', 'NewPet', 'properties', 'nickname'], { type: 'string' });
    const changedPath = join(tempDir, 'changed.yaml');
    writeFileSync(changedPath, stringify(document));
    const { upToDate, generated, committed } = await checkGeneratedTypes(changedPath);
    expect(upToDate).toBe(false);
    expect(generated).toContain('nickname?: string;');
    expect(committed).not.toContain('nickname');
  });
});

import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/package-root.js';

const eslint = new ESLint({ cwd: packageRoot });

/** The rules ESLint reports for `code` as if it were the file at `path` of the project. */
async function rulesBroken(code: string, path: string): Promise<Array<string | null>> {
  const [result] = await eslint.lintText(code, { filePath: join(packageRoot, path) });
  return (result?.messages ?? []).map((message) => message.ruleId);
}

const readsAFile = "import { readFileSync } from 'node:fs';\n\nexport const text = readFileSync('x', 'utf8');\n";

describe('the lint rule that keeps the core free of any transport', () => {
  it('reports an import from node:* in a file of src/core', async () => {
    expect(await rulesBroken(readsAFile, 'src/core/x.ts')).toContain('no-restricted-imports');
    expect(await rulesBroken(readsAFile, 'src/core/pipeline/deep/x.ts')).toContain('no-restricted-imports');
  });

  it('lets the Node side import the same thing', async () => {
    expect(await rulesBroken(readsAFile, 'src/node/x.ts')).toEqual([]);
  });

  it.each([
    ["import { readFileSync } from 'fs';", 'a Node module without the node: prefix'],
    ["import express from 'express';", 'a server framework'],
    ["import { pino } from 'pino';", 'a logger'],
    ["import { http } from 'msw';", 'MSW'],
    ["import { readNodeBody } from '../node/read-node-body.js';", 'an adapter of the Node side'],
    ["import { createFetchHandler } from '../adapters/fetch-adapter.js';", 'an adapter'],
  ])('reports %s in the core (%s)', async (line) => {
    expect(await rulesBroken(`${line}\n`, 'src/core/x.ts')).toContain('no-restricted-imports');
  });

  it('finds nothing to report in a core file that imports only the core', async () => {
    const code =
      "import { HttpError } from './errors/http-error.js';\n\nexport const error = new HttpError('mock_failed', 'x');\n";
    expect(await rulesBroken(code, 'src/core/x.ts')).toEqual([]);
  });
});

describe('the lint rules that keep the layers of src/core running one way', () => {
  it('reports a folder that imports a folder of a layer above it (the oracle importing the pipeline)', async () => {
    const code = "import { matchRoute } from '../pipeline/match-route.js';\n\nexport const match = matchRoute;\n";
    expect(await rulesBroken(code, 'src/core/oracle/x.ts')).toEqual(['no-restricted-imports']);
  });

  it('reports a type imported from above as well (the pipeline naming a session)', async () => {
    const code = "import type { Session } from '../sessions/session.js';\n\nexport type Seen = Session;\n";
    expect(await rulesBroken(code, 'src/core/pipeline/x.ts')).toEqual(['no-restricted-imports']);
  });

  it('reports a folder that imports the folder beside it in its layer (the store importing the journal)', async () => {
    const code =
      "import { RequestJournal } from '../journal/request-journal.js';\n\nexport const J = RequestJournal;\n";
    expect(await rulesBroken(code, 'src/core/store/x.ts')).toEqual(['no-restricted-imports']);
  });

  it('reports a folder that imports a file at the top of src/core, or generated data', async () => {
    const top = "import { createMockCore } from '../create-mock-core.js';\n\nexport const make = createMockCore;\n";
    expect(await rulesBroken(top, 'src/core/admin/x.ts')).toEqual(['no-restricted-imports']);
    const data =
      "import { defaultDocument } from '../../generated/default-document.js';\n\nexport const d = defaultDocument;\n";
    expect(await rulesBroken(data, 'src/core/admin/x.ts')).toEqual(['no-restricted-imports']);
  });

  it('lets a folder import the layers below it, and the top of src/core import any folder', async () => {
    const below = "import { HttpError } from '../errors/http-error.js';\n\nexport const E = HttpError;\n";
    expect(await rulesBroken(below, 'src/core/pipeline/x.ts')).toEqual([]);
    const anything =
      "import { SessionRegistry } from './sessions/session-registry.js';\n\nexport const R = SessionRegistry;\n";
    expect(await rulesBroken(anything, 'src/core/x.ts')).toEqual([]);
  });
});

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

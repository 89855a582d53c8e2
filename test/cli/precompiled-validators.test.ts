import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { loadDocument } from '../../src/node/load-document.js';
import { precompileValidators } from '../../src/precompile-validators.js';
import { temporaryFolder } from '../support/temporary-folder.js';
import { killRunningClis, startCli, waitForBanner } from './start-cli.js';

afterEach(killRunningClis);

const folder = temporaryFolder('petstore-validators-');
const kitDocument = join(packageRoot, 'openapi.yaml');
const otherDocument = join(packageRoot, 'test/evolution/documents/with-categories.yaml');

/** What `npx petstore-kit precompile PATH --out FILE` writes, for the document at `path`. */
function precompiled(path: string, name: string): string {
  const file = join(folder, `${name}.js`);
  writeFileSync(file, precompileValidators(loadDocument(path), { source: path }));
  return file;
}

const kitValidators = precompiled(kitDocument, 'kit');
const otherValidators = precompiled(otherDocument, 'with-categories');
const auth = { authorization: 'Bearer dev-key', 'content-type': 'application/json' };

describe('petstore-mock --validators', () => {
  it('serves a document with validators precompiled from it: valid requests answered, invalid ones refused with an Error', async () => {
    const api = await waitForBanner(
      startCli(['--port', '0', '--log-level', 'warn', '--document', otherDocument, '--validators', otherValidators]),
    );
    const listed = await fetch(`${api}/pets?limit=2`, { headers: auth });
    expect(listed.status).toBe(200);
    const created = await fetch(`${api}/pets`, {
      method: 'POST',
      headers: auth,
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.status).toBe(201);
    const refused = await fetch(`${api}/pets`, {
      method: 'POST',
      headers: auth,
      body: '{"name":"Rex","categoryId":"one"}',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: expect.any(String), status: 400 });
  });

  it('refuses to start with validators precompiled from another document, and says to precompile again', async () => {
    const cli = startCli(['--port', '0', '--document', otherDocument, '--validators', kitValidators]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(
      /cannot start: .*precompiled from .*openapi\.yaml.*not from this document.*precompile/,
    );
  });

  it('refuses to start with a module that holds no precompiled validators, naming the file', async () => {
    const notValidators = join(folder, 'not-validators.js');
    writeFileSync(notValidators, 'export const nothing = 1;\n');
    const cli = startCli(['--port', '0', '--validators', notValidators]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain(`--validators ${notValidators} has no validators as its default export`);
  });

  it('refuses to start with a file that cannot be loaded, naming the file', async () => {
    const missing = join(folder, 'missing.js');
    const cli = startCli(['--port', '0', '--validators', missing]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain(`--validators ${missing} could not be loaded`);
  });
});

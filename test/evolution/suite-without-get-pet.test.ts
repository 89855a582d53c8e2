import { afterAll, describe, expect, it } from 'vitest';
import { runRunner } from '../contract/support/run-runner.js';
import {
  type ReferenceOptions,
  type ReferenceServer,
  startReferenceServer,
} from '../contract/support/reference-server.js';
import { evolvedDocumentPath } from './support/evolved-documents.js';

// Without getPet the suite reads what it wrote back through listPets: the pages that hold every match must show
// it, with the values written. The reference implementation still serves getPet; the suite, by the document,
// never asks it.
const token = 'without-get-secret-1e5b';
const document = evolvedDocumentPath('without-get-pet');
const running: ReferenceServer[] = [];
afterAll(() => Promise.all(running.map((server) => server.close())));

async function suite(options: Omit<ReferenceOptions, 'token'>) {
  const server = await startReferenceServer({ token, ...options });
  running.push(server);
  return runRunner('contract', [
    '--base-url',
    server.baseUrl,
    '--token',
    token,
    '--document',
    document,
    '--settle',
    '300',
  ]);
}

describe.concurrent('the contract suite on a document without getPet', { timeout: 120_000 }, () => {
  it('passes a correct deployment, asking nothing of the operation the document no longer has', async () => {
    const result = await suite({});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Coverage: 5 of 5 documented responses received$/m);
    expect(result.stdout).not.toMatch(/getPet|GET \/pets\/\d/);
  });

  it('fails a deployment that loses what it created, through the pages that hold every match (write-kept)', async () => {
    const result = await suite({ breakage: 'lost-writes' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /\[fail\] write-kept: lost write: pet \d+ is missing from listPets, listPets\?status=available, listPets\?status=pending, listPets\?status=sold, pages that hold every match, \d+ ms after it was created/,
    );
  });

  it('fails a deployment that stores other values than it echoed, as the list shows them (read-back-values)', async () => {
    const result = await suite({ breakage: 'read-back-differs' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /\[fail\] read-back-values: GET \/pets\?[^\n]*→ 200: listPets shows pet \d+ with 'name' /,
    );
  });
});

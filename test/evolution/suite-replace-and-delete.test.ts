import { afterAll, describe, expect, it } from 'vitest';
import { runRunner } from '../contract/support/run-runner.js';
import {
  type ItemWriteBreakage,
  type ReferenceOptions,
  type ReferenceServer,
  startReferenceServer,
} from '../contract/support/reference-server.js';
import { evolvedDocumentPath } from './support/evolved-documents.js';

// The suite checked against the document with PUT and DELETE on an animal, and the reference implementation
// (which shares no code with the kit) serving them: correctly, or with one of two writes that are not kept.
const token = 'replace-delete-secret-7d2a';
const document = evolvedDocumentPath('with-replace-and-delete');
const running: ReferenceServer[] = [];
afterAll(() => Promise.all(running.map((server) => server.close())));

async function deployment(options: Omit<ReferenceOptions, 'token'> = {}): Promise<ReferenceServer> {
  const server = await startReferenceServer({ token, replaceAndDelete: true, ...options });
  running.push(server);
  return server;
}

function suite(server: ReferenceServer, ...flags: string[]) {
  return runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--document', document, ...flags]);
}

describe.concurrent('the contract suite on a document with PUT and DELETE', { timeout: 120_000 }, () => {
  it('passes a correct deployment of it, with every documented response received', async () => {
    const result = await suite(await deployment(), '--settle', '300');
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped/m);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Coverage: 15 of 15 documented responses received$/m);
  });

  const broken: Array<[ItemWriteBreakage, RegExp]> = [
    [
      'delete-keeps-pet',
      /✗ deletePet › answers 204, then the pet is gone[^\n]*\n\s+\[fail\] write-kept: GET \/pets\/\d+ → 200: getPet \d+ shows pet \d+, which was deleted \d+ ms earlier/,
    ],
    [
      'replace-keeps-old',
      /✗ replacePet › answers 200 with the Pet replaced, and getPet shows the new values within the settle window[^\n]*\n\s+\[fail\] read-back-values: GET \/pets\/\d+ → 200: getPet \d+ shows pet \d+ with 'name' "[^"]+"; it was replaced with "contract-test-[0-9a-f]{6}-Zoë written-2" \d+ ms earlier/,
    ],
  ];
  for (const [breakage, message] of broken) {
    it(`fails a deployment that ${breakage === 'delete-keeps-pet' ? 'answers DELETE 204 but keeps the pet' : 'answers PUT 200 echoing the new values but keeps the old ones'} (${breakage}), naming the rule`, async () => {
      const result = await suite(await deployment({ itemWriteBreakage: breakage }), '--settle', '300');
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(message);
      expect(result.output).not.toContain(token);
    });
  }

  it('sends nothing but GET and HEAD in read-only mode, with any key, although the document has PUT and DELETE', async () => {
    const server = await deployment();
    const before = server.petIds();
    const result = await suite(server, '--read-only');
    expect(result.code).toBe(0);
    expect(server.requestMethods().length).toBeGreaterThan(100);
    expect(server.requestMethods().filter((method) => method !== 'GET' && method !== 'HEAD')).toEqual([]);
    expect(server.petIds()).toEqual(before);
    // Every check of a writing operation is skipped, its authentication checks too.
    expect(result.stdout).toMatch(/^ {2}deletePet +0 passed, 0 failed, \d+ skipped$/m);
    expect(result.stdout).toMatch(/^ {2}replacePet +0 passed, 0 failed, \d+ skipped$/m);
    expect(result.stdout).toMatch(
      /- deletePet › authentication › answers the same request with the valid key \(not 401\) \(skipped\)/,
    );
  });

  it('sends nothing but GET and HEAD through Dredd in read-only mode either', async () => {
    const server = await deployment();
    const result = await runRunner('dredd', [
      '--base-url',
      server.baseUrl,
      '--token',
      token,
      '--document',
      document,
      '--read-only',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/complete: 5 passing, 0 failing, 0 errors, 10 skipped, 15 total/);
    expect(server.requestMethods().filter((method) => method !== 'GET' && method !== 'HEAD')).toEqual([]);
  });
});

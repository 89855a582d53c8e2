import { afterAll, describe, expect, it } from 'vitest';
import { defaultDocumentPath } from '../../src/package-root.js';
import { type RunnerResult, runRunner } from '../contract/support/run-runner.js';
import { type RunningServer, startMock } from '../support/start-server.js';
import { evolvedDocumentPath } from './support/evolved-documents.js';

// The contract suite, whose checks are registered by what each operation of the document is, against the kit's
// mock serving each document the kit is tried against: each passes with every response its document lists received.
const token = 'test-key';
const documents: Array<[string, string, string[]]> = [
  ["the kit's openapi.yaml", defaultDocumentPath, ['listPets', 'createPet', 'getPet']],
  [
    'a document with PUT and DELETE on an animal',
    evolvedDocumentPath('with-replace-and-delete'),
    ['listPets', 'createPet', 'getPet', 'replacePet', 'deletePet'],
  ],
  ['a document without getPet', evolvedDocumentPath('without-get-pet'), ['listPets', 'createPet']],
  [
    'a document with a second resource, categories, and PATCH and DELETE on an animal',
    evolvedDocumentPath('with-categories'),
    ['listPets', 'listCategories', 'createPet', 'createCategory', 'getPet', 'getCategory', 'updatePet', 'deletePet'],
  ],
  [
    'a document with the animals renamed',
    evolvedDocumentPath('renamed-to-animals'),
    ['listAnimals', 'createAnimal', 'getAnimal'],
  ],
];
const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((server) => server.close())));

/**
 * The contract suite's run against the kit's mock of a document, made once for the tests that read it (each run
 * starts a runner and drives a mock through every check and the exploration: about 1.5 s of CPU).
 */
const suiteRuns = new Map<string, Promise<RunnerResult>>();
function suiteRunOf(document: string): Promise<RunnerResult> {
  let run = suiteRuns.get(document);
  if (!run) {
    run = (async () => {
      const mock = await startMock({ document });
      running.push(mock);
      return runRunner('contract', ['--base-url', mock.baseUrl, '--token', token, '--document', document]);
    })();
    suiteRuns.set(document, run);
  }
  return run;
}

describe.concurrent('the contract suite against the kit’s mock of each document', { timeout: 120_000 }, () => {
  for (const [what, document, operations] of documents) {
    it(`passes for ${what}, with every documented response received`, async () => {
      const result = await suiteRunOf(document);
      expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped in \d+\.\d s/m);
      expect(result.code).toBe(0);
      const coverage = /^Coverage: (\d+) of (\d+) documented responses received$/m.exec(result.stdout);
      expect(coverage?.[1]).toBe(coverage?.[2]);
      expect(result.stdout).not.toContain('not received');
      // Each operation of the document got checks of its kind, named by its operationId, and no other.
      const checked = new Set([...result.stdout.matchAll(/^ {2}[✓✗-] (\w+) › /gm)].map(([, id]) => id));
      expect([...checked].sort()).toEqual([...operations, 'exploration'].sort());
      expect(result.stdout).toContain(`drives random sequences of ${operations.slice(0, -1).join(', ')} and`);
    });
  }

  it('names each resource in its own words: "valid categories", never "valid Categorys"', async () => {
    const document = evolvedDocumentPath('with-categories');
    const result = await suiteRunOf(document);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✓ listCategories › answers 200 with valid categories \(each a Category\)/);
    expect(result.stdout).toMatch(/✓ listPets › answers 200 with valid pets \(each a Pet\)/);
    // A plural made by adding an s to a word ending in a consonant and y: Categorys, categorys.
    expect(result.stdout.match(/\b\w*[b-df-hj-np-tv-z]ys\b/gi) ?? []).toEqual([]);
    expect(result.stdout).not.toMatch(/unknown-pet-404|requested-pet/);
  });

  it('checks the PUT and DELETE of a document that has them by their kind, reading back what they wrote', async () => {
    const document = evolvedDocumentPath('with-replace-and-delete');
    const result = await suiteRunOf(document);
    expect(result.code).toBe(0);
    for (const title of [
      /✓ replacePet › answers 200 with the Pet replaced, and getPet shows the new values within the settle window/,
      /✓ replacePet › answers 404 with an Error for an id that does not exist/,
      /✓ deletePet › answers 204, then the pet is gone \(getPet answers 404 and listPets leaves it out\)/,
      /✓ deletePet › answers 404 with an Error to a second delete of the same pet/,
    ])
      expect(result.stdout).toMatch(title);
  });

  it('reads what it created back through the list where the document has no read', async () => {
    const document = evolvedDocumentPath('without-get-pet');
    const result = await suiteRunOf(document);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✓ createPet › makes the created pet readable through listPets, within the settle/);
    expect(result.stdout).not.toMatch(/GET \/pets\/\d+/);
  });

  it('passes Dredd for the document with PUT and DELETE, changing only pets it created for them', async () => {
    const document = evolvedDocumentPath('with-replace-and-delete');
    const mock = await startMock({ document, pets: 5 });
    running.push(mock);
    const listed = async () =>
      (
        (await (
          await fetch(`${mock.baseUrl}/pets`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as unknown[]
      ).map((pet) => JSON.stringify(pet));
    const before = await listed();
    const result = await runRunner('dredd', ['--base-url', mock.baseUrl, '--token', token, '--document', document]);
    expect(result.stdout).toMatch(/complete: 15 passing, 0 failing, 0 errors, 0 skipped, 15 total/);
    expect(result.code).toBe(0);
    // The pets the mock held are all still there, unchanged: the PUT and the DELETE acted on pets made for them.
    expect(await listed()).toEqual(expect.arrayContaining(before));
  });
});

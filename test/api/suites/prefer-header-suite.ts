import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nothingToRun, type Subject, type Target } from '../../support/behaviour-subject.js';
import { withArticle } from '../../support/document-facts.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

/** The Prefer header (`code=`, `example=`): the document's own examples, chosen by the client, after validation. */
export function preferHeaderSuite(subject: Subject): void {
  const r = subject.resource;
  const { list, create, read } = r;
  if (!list) return nothingToRun(`the document has no list of ${r.name}`);
  const start = subject.scenario('one-of-each-status');
  const example = (operation: NonNullable<typeof list>, status: number) => {
    const found = subject.facts.example(operation, status);
    if (found === undefined) throw new Error(`the document gives ${operation.operationId} no ${status} example`);
    return found;
  };

  describe('the Prefer header', () => {
    let target: Target;
    beforeAll(async () => {
      target = await subject.start({ scenario: 'one-of-each-status' });
    });
    afterAll(() => target.close());
    const collection = () => `${target.baseUrl}${r.collectionPath}`;

    if (read?.statuses.includes(404)) {
      it(`answers the documented 404 example of ${read.operationId} for Prefer: code=404, even for ${withArticle(r.itemName)} that exists`, async () => {
        const existing = start.items[0]?.[r.idField];
        const response = await request(`${target.baseUrl}${r.itemPath(String(existing))}`, {
          headers: { ...auth, Prefer: 'code=404' },
        });
        expect(response.status).toBe(404);
        expect(response.body).toEqual(example(read, 404));
        expect(response.headers.get('preference-applied')).toBe('code=404');
      });
    }

    it('answers the documented 401 example with a valid key', async () => {
      const response = await request(collection(), { headers: { ...auth, Prefer: 'code=401' } });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(example(list, 401));
      // Every 401 says how to authenticate, a chosen example as much as a real refusal.
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    });

    if (create) {
      it(`answers the documented 201 example for ${create.operationId} without storing anything`, async () => {
        const response = await request(collection(), {
          method: 'POST',
          headers: { ...jsonAuth, Prefer: 'code=201' },
          body: JSON.stringify(r.newItem()),
        });
        expect(response.status).toBe(201);
        expect(response.body).toEqual(example(create, 201));
        expect((await request<unknown[]>(collection(), { headers: auth })).body).toEqual(start.items);
      });

      if (create.statuses.includes(400)) {
        it(`answers the documented 400 example for ${create.operationId}`, async () => {
          const response = await request(collection(), {
            method: 'POST',
            headers: { ...jsonAuth, Prefer: 'code=400' },
            body: JSON.stringify(r.newItem()),
          });
          expect(response.status).toBe(400);
          expect(response.body).toEqual(example(create, 400));
        });
      }
    }

    if (r.page) {
      const page = r.page;
      it('still validates the request first: an invalid request gets its real 400', async () => {
        const response = await request(`${collection()}?${page.name}=0`, { headers: { ...auth, Prefer: 'code=200' } });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_parameter' });
      });
    }

    const onlyCreate = create?.statuses.find((status) => !list.statuses.includes(status));
    it.each([
      ['a status the operation does not document', 'code=500', 'not a documented response'],
      ...(onlyCreate === undefined || !create
        ? []
        : [
            [
              `a status of ${list.operationId} that only ${create.operationId} documents`,
              `code=${onlyCreate}`,
              'not a documented response',
            ],
          ]),
      ['a status that is not a number', 'code=abc', 'three-digit'],
      ['an example without a code', 'example=foo', 'needs code'],
      ['an example the response does not have', 'code=200, example=nope', 'not an example'],
    ])('answers 400 invalid_prefer for %s', async (_case, prefer, words) => {
      const response = await request<{ code: string; message: string }>(collection(), {
        headers: { ...auth, Prefer: prefer },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_prefer');
      expect(response.body.message).toContain(words);
    });

    it('ignores preferences it does not know, as RFC 7240 asks', async () => {
      const response = await request<unknown[]>(collection(), {
        headers: { ...auth, Prefer: 'respond-async, wait=5' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(start.items);
    });
  });
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nothingToRun, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: Array<{ field: string; location: string; message: string }>;
}
interface StoreView {
  size: number;
  items: Item[];
}

/** An id no scenario of the kit's holds, of the referring field's type. */
const missingId = (type: string | undefined): number | string => (type === 'integer' ? 987_654_321 : 'no-such-item');

/**
 * References between resources (issue 37): a write whose field refers to an
 * item of another collection that does not exist is refused, inside the
 * state's one atomic call, with `400 invalid_reference` naming the field, and
 * changes nothing; one naming an item that exists is kept. A field the
 * document ties to no collection refers to nothing, whatever it is named.
 * The same from every store: the memory one and a Redis server's.
 */
export function referencesSuite(subject: Subject): void {
  const r = subject.resource;
  if (!r.create) return nothingToRun(`the document has no create of ${r.name}`);
  if (r.references.length === 0 && !r.integer) {
    return nothingToRun(`${r.name} refer to no other collection, and have no integer field that could seem to`);
  }
  const scenario = subject.scenario('one-of-each-status');
  const existing = scenario.items[0];

  describe(`references from ${r.name} to other collections`, () => {
    let target: Target;
    beforeEach(async () => {
      target = await subject.start({ scenario: 'one-of-each-status' });
    });
    afterEach(() => target.close());

    const stored = async (): Promise<StoreView> =>
      (await request<StoreView>(`${target.origin}/__admin/store?resource=${r.name}&limit=1000`, { headers: auth }))
        .body;
    const send = (method: string, path: string, body: Item) =>
      request<Item & ErrorBody>(`${target.baseUrl}${path}`, { method, headers: jsonAuth, body: JSON.stringify(body) });
    const refused = (response: { status: number; body: ErrorBody }, field: string, collection: string) => {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_reference', status: 400 });
      expect(response.body.message).toContain(`'${field}'`);
      expect(response.body.message).toContain(collection);
      expect(response.body.details?.[0]).toMatchObject({ location: 'body', field });
    };

    if (r.references.length === 0) {
      const integer = r.integer;
      if (integer) {
        it(`keeps any ${integer.name} in a create: the document ties it to no collection, so it refers to nothing`, async () => {
          const response = await send('POST', r.collectionPath, r.newItem({ [integer.name]: 987_654_321 }));
          expect(response.status).toBe(201);
          expect(response.body[integer.name]).toBe(987_654_321);
        });
      }
      return;
    }

    for (const field of r.references) {
      const missing = missingId(field.type);

      it(`refuses a create whose ${field.name} names no item of ${field.collection} with 400 invalid_reference, and stores nothing`, async () => {
        const before = await stored();
        refused(
          await send('POST', r.collectionPath, r.newItem({ [field.name]: missing })),
          field.name,
          field.collection,
        );
        expect(await stored()).toEqual(before);
      });

      it(`keeps a create whose ${field.name} names an item of ${field.collection} that exists`, async () => {
        const item = r.newItem();
        const response = await send('POST', r.collectionPath, item);
        expect(response.status).toBe(201);
        expect(response.body[field.name]).toEqual(item[field.name]);
      });

      const update = r.update;
      if (update && existing) {
        const id = String(existing[r.idField]);
        it(`refuses ${update.operationId} setting ${field.name} to no item of ${field.collection}, and leaves the ${r.itemName} as it was`, async () => {
          const before = await stored();
          refused(await send('PATCH', r.itemPath(id), { [field.name]: missing }), field.name, field.collection);
          expect(await stored()).toEqual(before);
        });

        it(`checks the reference before the ${r.itemName}: ${update.operationId} of one that does not exist, naming no item of ${field.collection}, is a 400`, async () => {
          refused(
            await send('PATCH', r.itemPath(missingId(typeof existing[r.idField] === 'string' ? 'string' : 'integer')), {
              [field.name]: missing,
            }),
            field.name,
            field.collection,
          );
        });
      }

      const replace = r.replace;
      if (replace && existing) {
        const id = String(existing[r.idField]);
        it(`refuses ${replace.operationId} naming no item of ${field.collection} in ${field.name}, and leaves the ${r.itemName} as it was`, async () => {
          const before = await stored();
          refused(
            await send('PUT', r.itemPath(id), r.newItem({ [field.name]: missing })),
            field.name,
            field.collection,
          );
          expect(await stored()).toEqual(before);
        });
      }
    }
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nothingToRun, type Subject, type Target } from '../../support/behaviour-subject.js';
import { withArticle } from '../../support/document-facts.js';
import { auth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;

/** A read operation (GET on an item path): the item of that id, a 404 for none, a 400 for an id of the wrong form. */
export function readItemSuite(subject: Subject): void {
  const r = subject.resource;
  if (!r.read || r.idParameter === undefined) return nothingToRun(`the document has no read of one of its ${r.name}`);
  const idParameter = r.idParameter;
  const int64 = r.resource.properties.get(r.idField)?.format === 'int64';
  const scenario = subject.scenario('edge-cases');
  const item = (target: Target, id: unknown) => `${target.baseUrl}${r.itemPath(String(id))}`;

  describe(`GET /v1${r.itemPathTemplate}`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await subject.start({ scenario: 'edge-cases' });
    });
    afterAll(() => target.close());

    it(`answers 200 with the ${r.itemName} of that ${r.idField}`, async () => {
      for (const expected of scenario.items.slice(0, 3)) {
        const response = await request(item(target, expected[r.idField]), { headers: auth });
        expect(response.status).toBe(200);
        expect(response.body).toEqual(expected);
      }
    });

    const largest = scenario.items.reduce<Item | undefined>(
      (max, each) => (max === undefined || (each[r.idField] as number) > (max[r.idField] as number) ? each : max),
      undefined,
    );
    if (int64 && largest && (largest[r.idField] as number) > 2 ** 52) {
      it(`serves ${withArticle(r.idField)} near 2^53 exactly`, async () => {
        const id = String(largest[r.idField]);
        const response = await request(item(target, id), { headers: auth });
        expect(response.status).toBe(200);
        expect(response.text).toContain(`"${r.idField}":${id}`);
      });
    }

    it(`answers 404 with an Error body for ${withArticle(r.idField)} that does not exist`, async () => {
      const response = await request(item(target, 424242), { headers: auth });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(r.notFound(424242));
    });

    if (int64) {
      it.each([
        ['a word', 'abc'],
        ['a decimal', '1.5'],
        ['a hexadecimal number', '0x10'],
        ['an exponent', '1e3'],
        ['an id beyond int64', '9223372036854775808'],
        ['an id below int64', '-9223372036854775809'],
        ['a padded number', '%201'],
      ])(`answers 400 naming ${idParameter} for %s`, async (_case, id) => {
        const response = await request<{ code: string; message: string; status: number }>(item(target, id), {
          headers: auth,
        });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_parameter', status: 400 });
        expect(response.body.message).toContain(`'${idParameter}'`);
      });

      // A negative id no item of the scenario has (its categories may hold -1: an edge-case animal refers to it).
      const negative = -[1, 2, 3, 4].find((id) => !scenario.items.some((each) => each[r.idField] === -id))!;
      it(`answers 404, not 400, for a negative ${r.idField}, which is a well-formed int64`, async () => {
        const response = await request(item(target, negative), { headers: auth });
        expect(response.status).toBe(404);
        expect(response.body).toEqual(r.notFound(negative));
      });
    }
  });
}

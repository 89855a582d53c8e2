import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nothingToRun, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;
interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details: Array<{ field: string }>;
}

/**
 * A list operation (GET on a collection): its page, its filters, its
 * refusals, its answers after a write. Paths, parameters and fields are the
 * document's, read from the model.
 */
export function listItemsSuite(subject: Subject): void {
  const r = subject.resource;
  const list = r.list;
  if (!list) return nothingToRun(`the document has no list of ${r.name}`);
  const page = r.page;
  const ids = (items: Item[]) => items.map((item) => item[r.idField]);
  const listed = (target: Target, query = '') =>
    request<Item[]>(`${target.baseUrl}${r.collectionPath}${query}`, { headers: auth });
  const all = page ? `${page.name}=${page.maximum}` : '';

  describe(`GET /v1${r.collectionPath}`, () => {
    let target: Target;
    const large = subject.scenario('large');
    beforeAll(async () => {
      target = await subject.start({ scenario: 'large' });
    });
    afterAll(() => target.close());

    if (page?.default !== undefined) {
      const size = page.default;
      it(`answers the first ${size} ${r.name} in ascending ${r.idField} order when no ${page.name} is given`, async () => {
        expect(large.size).toBeGreaterThan(size);
        const response = await listed(target);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(ids(response.body)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      });
    }

    if (page?.minimum !== undefined && page.maximum !== undefined) {
      const limits = [page.minimum, Math.floor((page.minimum + page.maximum) / 3), page.maximum];
      it.each(limits.map((limit) => [limit, limit]))(
        `answers exactly %i ${r.name} when ${page.name}=%i and the store has more`,
        async (limit) => {
          expect(large.size).toBeGreaterThan(limit);
          const response = await listed(target, `?${page.name}=${limit}`);
          expect(response.status).toBe(200);
          expect(response.body).toHaveLength(limit);
        },
      );
    }

    for (const filter of r.filters) {
      it.each(filter.values.map((value) => [value, value]))(
        `answers only %s ${r.name}, in ascending ${r.idField} order, under ${filter.name}=%s`,
        async (value) => {
          const response = await listed(target, `?${filter.name}=${value}${all ? `&${all}` : ''}`);
          expect(response.status).toBe(200);
          expect(response.body.length).toBeGreaterThan(0);
          expect(response.body.every((item) => item[filter.name] === value)).toBe(true);
          const shown = ids(response.body) as number[];
          expect(shown).toEqual([...shown].sort((a, b) => a - b));
        },
      );

      const value = filter.values.at(-1) as string;
      it(`returns the same ${r.name} as filtering the full list by ${filter.name} by hand`, async () => {
        const everything = await listed(target, all ? `?${all}` : '');
        const filtered = await listed(target, `?${filter.name}=${value}${all ? `&${all}` : ''}`);
        const byHand = everything.body.filter((item) => item[filter.name] === value);
        expect(byHand.length).toBeGreaterThan(0);
        expect(filtered.body.slice(0, byHand.length)).toEqual(byHand);
      });
    }

    // Parameters the list does not take: names no parameter of the document has.
    const unknown = ['page', 'offset'].filter((name) => !r.listParameters.includes(name));
    const refusals: Array<[string, string]> = [
      ...(page
        ? ([
            [`${page.name}=${(page.minimum ?? 1) - 1}`, page.name],
            ...(page.maximum === undefined ? [] : [[`${page.name}=${page.maximum + 1}`, page.name]]),
            [`${page.name}=-1`, page.name],
            [`${page.name}=abc`, page.name],
            [`${page.name}=1.5`, page.name],
            [`${page.name}=`, page.name],
            [`${page.name}=20&${page.name}=30`, page.name],
            [`${page.name}=9007199254740993`, page.name],
          ] as Array<[string, string]>)
        : []),
      ...r.filters.flatMap((filter): Array<[string, string]> => [
        [`${filter.name}=${['lost', 'unknown-value'].find((word) => !filter.values.includes(word))}`, filter.name],
        [`${filter.name}=${(filter.values[0] as string).toUpperCase()}`, filter.name],
      ]),
      ...unknown.map((name): [string, string] => [`${name}=2`, name]),
    ];
    it.each(refusals)('answers 400 with an Error naming the parameter for ?%s', async (query, field) => {
      const response = await request<ErrorBody>(`${target.baseUrl}${r.collectionPath}?${query}`, { headers: auth });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_parameter', status: 400 });
      expect(response.body.message).toContain(`'${field}'`);
      expect(response.body.details.map((detail) => detail.field)).toContain(field);
    });
  });

  describe(`GET /v1${r.collectionPath} on an empty store`, () => {
    it('answers 200 with an empty array', async () => {
      expect(subject.scenario('empty').size).toBe(0);
      const target = await subject.start({ scenario: 'empty' });
      try {
        const response = await listed(target);
        expect(response.status).toBe(200);
        expect(response.text).toBe('[]');
      } finally {
        await target.close();
      }
    });
  });

  const filter = r.filters[0];
  if (r.create && filter) {
    const value = filter.values.at(-1) as string;
    describe(`GET /v1${r.collectionPath} after a write`, () => {
      it(`serves the new ${r.itemName} at once, even when the same page was served just before`, async () => {
        const scenario = subject.scenario('one-of-each-status');
        const matching = ids(scenario.items.filter((item) => item[filter.name] === value));
        expect(matching.length).toBeGreaterThan(0);
        const target = await subject.start({ scenario: 'one-of-each-status' });
        try {
          const query = `?${filter.name}=${value}`;
          expect(ids((await listed(target, query)).body)).toEqual(matching);
          const created = await request(`${target.baseUrl}${r.collectionPath}`, {
            method: 'POST',
            headers: jsonAuth,
            body: JSON.stringify(r.newItem({ [filter.name]: value })),
          });
          expect(created.status).toBe(201);
          expect(ids((await listed(target, query)).body)).toEqual([...matching, scenario.nextId]);
          await request(`${target.origin}/__admin/reset`, { method: 'POST', headers: auth });
          expect(ids((await listed(target, query)).body)).toEqual(matching);
        } finally {
          await target.close();
        }
      });
    });
  }
}

import { parse } from 'lossless-json';
import { describe, expect } from 'vitest';
import { testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

type Item = Record<string, unknown>;

/** A JSON number as a number, or as a bigint where a double would round it. */
const exactNumber = (text: string) =>
  /^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text)) ? BigInt(text) : Number(text);
interface StoreView {
  scenario: string;
  resource: string;
  size: number;
  fields: string[];
  filters: Array<{ name: string; values: string[] }>;
  items: Item[];
}

/**
 * `GET /__admin/store?resource=…`: a session's data, one collection at a
 * time, read without going through the API: every resource of the document
 * alike.
 */
export function adminStoreSuite(subject: Subject): void {
  const r = subject.resource;
  const scenario = subject.scenario('one-of-each-status');
  /** The store view of the subject's collection, with more of the query (`&limit=2`). */
  const store = (target: Target, query = '', session?: string) =>
    request<StoreView>(`${target.origin}/__admin/store?resource=${r.name}${query}`, {
      headers: session ? { ...auth, 'Petstore-Session': session } : auth,
    });
  const withTarget = async (run: (target: Target) => Promise<void>, scenarioName = 'one-of-each-status') => {
    const target = await subject.start({ scenario: scenarioName });
    try {
      await run(target);
    } finally {
      await target.close();
    }
  };

  const it = testsFor(subject, {});

  describe('GET /__admin/store: a session’s data, read without going through the API', () => {
    it('answers the scenario, the store’s size, the filters the document gives, and the first items', () =>
      withTarget(async (target) => {
        const response = await store(target, '&limit=2');
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          scenario: 'one-of-each-status',
          resource: r.name,
          size: scenario.size,
          // The id first, then the item schema's other properties in its order.
          fields: [r.idField, ...r.resource.fields.filter((field) => field !== r.idField)],
          filters: r.filters,
          items: scenario.items.slice(0, 2),
        });
      }));

    it('filters as the API’s list does, and refuses a value the document does not have', () =>
      withTarget(async (target) => {
        for (const filter of r.filters) {
          const value = filter.values.at(-1) as string;
          expect((await store(target, `&${filter.name}=${value}`)).body.items).toEqual(
            scenario.items.filter((item) => item[filter.name] === value),
          );
        }
        const unfiltered = r.resource.fields.find((field) => !r.filters.some((filter) => filter.name === field));
        const refusals = [
          ...r.filters.map((filter) => [`&${filter.name}=lost`, filter.name]),
          ['&limit=0', 'limit'],
          ['&limit=1001', 'limit'],
          ...(unfiltered ? [[`&${unfiltered}=Luna`, unfiltered]] : []),
          ['&resource=nothing', 'resource'],
        ];
        for (const [query, field] of refusals) {
          const refused = await store(target, query);
          expect(refused.status, query).toBe(400);
          expect(refused.body).toMatchObject({ code: 'invalid_parameter', details: [{ field }] });
        }
      }));

    testsFor(subject, { mock: true })('uses no fault scheduled for the session, and goes into no journal', () =>
      withTarget(async (target) => {
        const qa = target.mock?.session('w2');
        if (!qa) throw new Error('the transport holds no mock in this process');
        qa.scheduleFault({ status: 503 });
        for (let read = 0; read < 3; read++) expect((await store(target, '', 'w2')).status).toBe(200);
        expect(qa.faults()).toMatchObject([{ status: 503, times: 1 }]);
        expect(qa.journal.size).toBe(0);
        const worker = await request(`${target.baseUrl}${r.collectionPath}`, {
          headers: { ...auth, 'Petstore-Session': 'w2' },
        });
        expect(worker.status).toBe(503);
      }),
    );

    it(`reads the session the request names, each with its own ${r.name}`, () =>
      withTarget(async (target) => {
        const created = await request(`${target.baseUrl}${r.collectionPath}`, {
          method: 'POST',
          headers: { ...jsonAuth, 'Petstore-Session': 'w3' },
          body: JSON.stringify(r.newItem(r.text ? { [r.text.name]: 'Only in w3' } : {})),
        });
        expect(created.status).toBe(201);
        const w3 = (await store(target, '', 'w3')).body;
        expect(w3.size).toBe(scenario.size + 1);
        expect(w3.items).toContainEqual(created.body);
        expect((await store(target)).body.size).toBe(scenario.size);
      }));

    it(`keeps ${r.idField}s beyond 2^53 exact`, async () => {
      const target = await subject.start({
        scenario: 'big',
        fixtures: { big: { description: 'big ids', items: [r.newItem({ [r.idField]: 9223372036854775807n })] } },
      });
      try {
        const text = (await store(target)).text;
        expect(text).toContain(`"${r.idField}":9223372036854775807`);
        expect(parse(text, undefined, exactNumber)).toMatchObject({
          items: [r.newItem({ [r.idField]: 9223372036854775807n })],
        });
      } finally {
        await target.close();
      }
    });

    const others = subject.facts.resources.filter((each) => each.name !== r.name);
    it(
      others.length === 0
        ? `reads the document’s only collection, ${r.name}, when the request names none`
        : `answers 400 naming the collections (${[r, ...others].map((each) => each.name).join(', ')}) when the request names none`,
      () =>
        withTarget(async (target) => {
          const unnamed = await request<StoreView & { code: string; message: string }>(
            `${target.origin}/__admin/store`,
            { headers: auth },
          );
          if (others.length === 0) {
            expect(unnamed.status).toBe(200);
            expect(unnamed.body).toEqual((await store(target)).body);
          } else {
            expect(unnamed.status).toBe(400);
            expect(unnamed.body).toMatchObject({ code: 'invalid_parameter', details: [{ field: 'resource' }] });
            for (const each of subject.facts.resources) expect(unnamed.body.message).toContain(each.name);
          }
        }),
    );

    const foreign = others
      .flatMap((each) => each.filters)
      .find((filter) => !r.filters.some((own) => own.name === filter.name));
    if (foreign) {
      it(`refuses ${foreign.name}, a filter of another collection than ${r.name}`, () =>
        withTarget(async (target) => {
          const refused = await store(target, `&${foreign.name}=${foreign.values[0]}`);
          expect(refused.status).toBe(400);
          expect(refused.body).toMatchObject({ code: 'invalid_parameter', details: [{ field: foreign.name }] });
        }));
    }

    it('needs the key, as every admin operation but health does', () =>
      withTarget(async (target) => {
        const response = await request(`${target.origin}/__admin/store`);
        expect(response.status).toBe(401);
      }));
  });
}

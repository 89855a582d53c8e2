import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeprecatedOperation } from '../../support/document-facts.js';
import { nothingToRun, testsFor, type Subject, type Target } from '../../support/behaviour-subject.js';
import { auth, jsonAuth, request } from '../../support/start-server.js';

/** `2030-12-05` → the start of that day, UTC, in ms. */
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The headers the document says announce a deprecated operation (RFC 9745, RFC 8594), null where it gives none. */
export function deprecationHeadersOf(operation: DeprecatedOperation): Record<string, string | null> {
  return {
    deprecation: operation.deprecatedAt === undefined ? null : `@${dayStart(operation.deprecatedAt) / 1000}`,
    sunset: operation.sunset === undefined ? null : new Date(dayStart(operation.sunset)).toUTCString(),
    link: operation.replacedBy ? `</v1${operation.replacedBy.path}>; rel="successor-version"` : null,
  };
}

/** The Error body of a request to an operation past its removal date. */
export function removedBody(operation: DeprecatedOperation) {
  const replacement = operation.replacedBy;
  return {
    code: 'operation_removed',
    message: `${operation.operationId} (${operation.method} ${operation.path}) was removed on ${operation.sunset} (its sunset date)${replacement ? `; use ${replacement.operationId} (${replacement.method} ${replacement.path}) instead` : ''}`,
    status: 410,
  };
}

/**
 * The deprecated operations of the document, each read from it: what it
 * says of their deprecation (x-deprecated-at, x-sunset, x-replaced-by)
 * comes with every answer, and past the removal date, by a clock the test
 * sets, the operation answers 410 Gone. Each deprecated read of an item is
 * tried; a document without one has no such test.
 */
export function deprecatedOperationSuite(subject: Subject): void {
  const tried = subject.facts.deprecated.filter(
    (operation) => operation.kind === 'read' && operation.resource?.name === subject.resource.name,
  );
  if (tried.length === 0) return nothingToRun(`the document deprecates no read of one of its ${subject.resource.name}`);
  for (const operation of tried) {
    const resource = operation.resource;
    if (!resource) continue;
    const headers = deprecationHeadersOf(operation);
    const path = (target: Target, id: unknown) => `${target.baseUrl}${resource.itemPath(String(id))}`;

    describe(`${operation.method} /v1${operation.path} (deprecated)`, () => {
      let target: Target;
      beforeAll(async () => {
        // The mock's clock is the test's: the document's moment, after the deprecation and before the removal
        // (RFC 9745: a Deprecation date in the past says "deprecated now").
        target = await subject.start();
      });
      afterAll(() => target.close());

      it.each([
        ['the 200', 1, 200],
        ['the 404', 999_999, 404],
        ['the 401', 1, 401],
        ['the 400', 'abc', 400],
      ])('sends Deprecation, Sunset and a successor Link on %s', async (_case, id, status) => {
        const response = await request(path(target, id), { headers: status === 401 ? {} : auth });
        expect(response.status).toBe(status);
        expect(response.headers.get('deprecation')).toBe(headers.deprecation);
        expect(response.headers.get('sunset')).toBe(headers.sunset);
        expect(response.headers.get('link')).toBe(headers.link);
      });

      it('sends no deprecation headers on the operations that are not deprecated', async () => {
        const others = subject.facts.resources
          .flatMap((each) => (each.list ? [each.collectionPath] : []))
          .filter((other) => other !== operation.path);
        expect(others.length).toBeGreaterThan(0);
        for (const other of others) {
          const response = await request(`${target.baseUrl}${other}`, { headers: auth });
          expect(response.status, other).toBe(200);
          expect(response.headers.get('deprecation')).toBeNull();
          expect(response.headers.get('sunset')).toBeNull();
        }
      });
    });

    const sunset = operation.sunset;
    if (sunset === undefined) continue;
    describe(`${operation.operationId} past its removal date (x-sunset ${sunset})`, () => {
      let target: Target | undefined;
      afterEach(async () => {
        await target?.close();
        target = undefined;
      });
      const removed = removedBody(operation);

      it('answers 410 Gone with an Error body and the deprecation headers from the start of that day, UTC', async () => {
        target = await subject.start({ now: new Date(dayStart(sunset)).toISOString() });
        const gone = await request(path(target, 1), { headers: auth });
        expect(gone.status).toBe(410);
        expect(gone.body).toEqual(removed);
        expect(gone.headers.get('sunset')).toBe(headers.sunset);
        expect(gone.headers.get('deprecation')).toBe(headers.deprecation);
        expect(gone.headers.get('link')).toBe(headers.link);
        // The other operations, and the replacement the document names, still answer.
        expect((await request(`${target.baseUrl}${resource.collectionPath}`, { headers: auth })).status).toBe(200);
        // A request without a key is still told to authenticate first.
        expect((await request(path(target, 1))).status).toBe(401);
      });

      const lastMoment = new Date(dayStart(sunset) - 1).toISOString();
      testsFor(subject, { frozenAt: lastMoment })(
        'serves the operation up to the last moment before that day',
        async () => {
          target = await subject.start({ frozenAt: lastMoment });
          expect((await request(path(target, 1), { headers: auth })).status).toBe(200);
          expect((await request<{ now: string }>(`${target.origin}/__admin/clock`, { headers: auth })).body.now).toBe(
            lastMoment,
          );
        },
      );

      it("moves one session's clock through the admin API, back with DELETE, and with a reset", async () => {
        target = await subject.start();
        const after = new Date(dayStart(sunset) + 27 * 86_400_000).toISOString().slice(0, 10);
        const session = { 'Petstore-Session': 'after' };
        const set = await request(`${target.origin}/__admin/clock`, {
          method: 'PUT',
          headers: { ...jsonAuth, ...session },
          body: JSON.stringify({ now: after }),
        });
        expect(set.status).toBe(200);
        expect(set.body).toMatchObject({ now: expect.stringMatching(new RegExp(`^${after}T00:00:0\\d\\.\\d{3}Z$`)) });
        expect((await request(path(target, 1), { headers: { ...auth, ...session } })).body).toEqual(removed);
        // Another session keeps the mock's clock.
        expect((await request(path(target, 1), { headers: auth })).status).toBe(200);
        const back = await request(`${target.origin}/__admin/clock`, {
          method: 'DELETE',
          headers: { ...auth, ...session },
        });
        expect(back.body).toMatchObject({ offsetMs: 0 });
        expect((await request(path(target, 1), { headers: { ...auth, ...session } })).status).toBe(200);
        await request(`${target.origin}/__admin/clock`, {
          method: 'PUT',
          headers: { ...jsonAuth, ...session },
          body: JSON.stringify({ now: after }),
        });
        await request(`${target.origin}/__admin/reset`, { method: 'POST', headers: { ...auth, ...session } });
        expect((await request(path(target, 1), { headers: { ...auth, ...session } })).status).toBe(200);
      });

      it('refuses a clock that is no date with a 400 Error body', async () => {
        target = await subject.start();
        const refused = await request(`${target.origin}/__admin/clock`, {
          method: 'PUT',
          headers: jsonAuth,
          body: JSON.stringify({ now: 'next tuesday' }),
        });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 'invalid_body', status: 400 });
      });

      testsFor(subject, { mock: true })('moves the clock in-process with mock.setNow, undone by reset()', async () => {
        target = await subject.start();
        const mock = target.mock;
        if (!mock) throw new Error('the transport holds no mock in this process');
        const after = new Date(dayStart(sunset) + 86_400_000).toISOString().slice(0, 10);
        mock.setNow(after);
        expect(new Date(mock.now()).toISOString()).toMatch(new RegExp(`^${after}T00:00:0`));
        expect((await request(path(target, 1), { headers: auth })).status).toBe(410);
        mock.reset();
        expect((await request(path(target, 1), { headers: auth })).status).toBe(200);
      });
    });
  }
}

import { afterAll, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { inProcessMock } from '../support/start-server.js';

// Issue 36: the clock took what it should refuse. `+275760-09-13T00:00:00.000Z` answered 500 but set the clock
// (every read of it a 500 after), `2030-02-31` became 2030-03-03, `1` became 2001-01-01, and a leading space or a
// trailing NUL were read as if absent.
describe('the clock, given what is no RFC 3339 date', () => {
  // One mock as a user starts it serves every case of the admin API: each sets its own clock first.
  let origin: Promise<string> | undefined;
  afterAll(() => killRunningClis());

  const startMock = async () => {
    origin ??= waitForBanner(startCli(['--port', '0', '--log-level', 'silent'])).then((base) => new URL(base).origin);
    const at = await origin;
    const clock = async (method: string, now?: string) => {
      const response = await fetch(`${at}/__admin/clock`, {
        method,
        headers: { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' },
        ...(now === undefined ? {} : { body: JSON.stringify({ now }) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    return { clock };
  };

  it.each([
    ['+275760-09-13T00:00:00.000Z', 'it is not an RFC 3339 date'],
    ['10000-01-01', 'it is not an RFC 3339 date'],
    ['2030-02-31', 'it is not a real date and time of the calendar'],
    ['2030-02-29', 'it is not a real date and time of the calendar'],
    ['2030-12-06T24:00:00Z', 'it is not a real date and time of the calendar'],
    ['2030-12-31T23:59:60Z', 'it names a leap second, which the clock cannot hold'],
    ['1', 'it is not an RFC 3339 date'],
    ['1893456000000', 'it is not an RFC 3339 date'],
    ['2030-12-06\u0000', 'it is not an RFC 3339 date'],
    [' 2030-12-06', 'it is not an RFC 3339 date'],
    ['2030-12-06 ', 'it is not an RFC 3339 date'],
    ['2030-12-06T09:30Z', 'it is not an RFC 3339 date'],
    ['2030-12-06T09:30:00', 'it is not an RFC 3339 date'],
    ['2030-12-06T09:30:00+0100', 'it is not an RFC 3339 date'],
    ['Fri, 06 Dec 2030 09:30:00 GMT', 'it is not an RFC 3339 date'],
    ['2030-12-06T09:30:00.0001Z', 'it holds a fraction of a second finer than the milliseconds the clock counts'],
    ['2030-12-06T09:30:00+24:00', 'its offset is not one from -23:59 to +23:59'],
    ['9999-12-31T23:59:59-01:00', 'once its offset is applied it falls outside the years 0000 to 9999'],
  ])('refuses %j with 400 invalid_body saying why, and changes nothing', async (now, why) => {
    const { clock } = await startMock();
    expect((await clock('PUT', '2031-01-01')).status).toBe(200);
    const refused = await clock('PUT', now);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_body', status: 400 });
    expect(refused.body.message).toContain('now must be a date such as 2030-12-06');
    expect(refused.body.message).toContain(why);
    const after = await clock('GET');
    expect(after.status).toBe(200);
    expect(after.body.now).toMatch(/^2031-01-01T00:00:/);
  });

  it.each([
    ['2030-12-06', /^2030-12-06T00:00:0/],
    ['2030-12-06t09:30:00z', /^2030-12-06T09:30:0/],
    ['2030-12-06T09:30:00.250+01:00', /^2030-12-06T08:30:00\.(2[5-9]|[3-9])/],
    ['2030-12-06T09:30:00-00:00', /^2030-12-06T09:30:0/],
    ['2028-02-29', /^2028-02-29T00:00:0/],
    ['0000-01-01T00:00:00Z', /^0000-01-01T00:00:0/],
  ])('takes %j, and reads it back', async (now, read) => {
    const { clock } = await startMock();
    const set = await clock('PUT', now);
    expect(set.status).toBe(200);
    expect(set.body.now).toMatch(read);
    expect((await clock('GET')).body.now).toMatch(read);
  });

  it('takes the last moment of year 9999, and reads it back as that moment once time has run on', async () => {
    const { clock } = await startMock();
    expect((await clock('PUT', '9999-12-31T23:59:59.999Z')).status).toBe(200);
    const read = await clock('GET');
    expect(read.status).toBe(200);
    expect(read.body.now).toBe('9999-12-31T23:59:59.999Z');
    // What it reads is a date it takes back.
    expect((await clock('PUT', read.body.now as string)).status).toBe(200);
  });

  it('refuses the same in-process with mock.setNow, changing nothing, and takes whole ms within the years', () => {
    const mock = inProcessMock({ now: '2031-01-01' });
    try {
      const before = mock.mock.now();
      for (const now of ['2030-02-31', ' 2030-12-06', '+275760-09-13T00:00:00.000Z', 8.64e15, 1.5, new Date('soon')]) {
        expect(() => mock.mock.setNow(now), String(now)).toThrow(/now must be a date such as 2030-12-06/);
        expect(mock.mock.now() - before).toBeLessThan(60_000);
        expect(mock.mock.now() - before).toBeGreaterThanOrEqual(0);
      }
      mock.mock.setNow(Date.UTC(2030, 11, 6));
      expect(new Date(mock.mock.now()).toISOString()).toMatch(/^2030-12-06T00:00:0/);
    } finally {
      void mock.close();
    }
  });

  it.each(['2030-02-31', ' 2030-12-06', '1', '+275760-09-13T00:00:00.000Z'])(
    'refuses to start the CLI with --now %j, with exit code 2',
    async (now) => {
      const cli = startCli(['--port', '0', '--now', now]);
      expect(await cli.exited).toBe(2);
      expect(cli.stderr()).toContain('--now must be a date such as 2030-12-06');
    },
  );
});

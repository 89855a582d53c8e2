import { afterEach, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { auth, inProcessMock, jsonAuth, request, type InProcessMock } from '../support/start-server.js';

// getPet's removal date is in the document (x-sunset: 2030-12-05). The mock acts it out by a clock a team can
// set (`--now`, the `now` option, `PUT /__admin/clock`, `mock.setNow`), so that an app can be seen after it.

const removed = {
  code: 'operation_removed',
  message: 'getPet (GET /pets/{petId}) was removed on 2030-12-05 (its sunset date); use listPets (GET /pets) instead',
  status: 410,
};

describe('an operation past its removal date (x-sunset)', () => {
  let mock: InProcessMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
    killRunningClis();
  });

  it('answers 410 Gone with an Error body and the deprecation headers from the start of that day, UTC', async () => {
    mock = inProcessMock({ now: '2030-12-05T00:00:00Z' });
    const gone = await request(`${mock.baseUrl}/pets/1`, { headers: auth });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual(removed);
    expect(gone.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(gone.headers.get('deprecation')).not.toBeNull();
    expect(gone.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    // The other operations, and the replacement the document names, still answer.
    expect((await request(`${mock.baseUrl}/pets?limit=1`, { headers: auth })).status).toBe(200);
    // A request without a key is still told to authenticate first.
    expect((await request(`${mock.baseUrl}/pets/1`)).status).toBe(401);
  });

  it('serves the operation up to the last moment before that day', async () => {
    mock = inProcessMock({ now: '2030-12-04T23:59:59.900Z' });
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(200);
  });

  it("moves one session's clock through the admin API, back with DELETE, and with a reset", async () => {
    mock = inProcessMock();
    const session = { 'Petstore-Session': 'after' };
    const set = await request(`${mock.origin}/__admin/clock`, {
      method: 'PUT',
      headers: { ...jsonAuth, ...session },
      body: JSON.stringify({ now: '2031-01-01' }),
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ now: expect.stringMatching(/^2031-01-01T00:00:0\d\.\d{3}Z$/) });
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: { ...auth, ...session } })).body).toEqual(removed);
    // Another session keeps the mock's clock.
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(200);
    const back = await request(`${mock.origin}/__admin/clock`, { method: 'DELETE', headers: { ...auth, ...session } });
    expect(back.body).toMatchObject({ offsetMs: 0 });
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: { ...auth, ...session } })).status).toBe(200);
    await request(`${mock.origin}/__admin/clock`, {
      method: 'PUT',
      headers: { ...jsonAuth, ...session },
      body: JSON.stringify({ now: '2031-01-01' }),
    });
    await request(`${mock.origin}/__admin/reset`, { method: 'POST', headers: { ...auth, ...session } });
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: { ...auth, ...session } })).status).toBe(200);
  });

  it('refuses a clock that is no date with a 400 Error body', async () => {
    mock = inProcessMock();
    const refused = await request(`${mock.origin}/__admin/clock`, {
      method: 'PUT',
      headers: jsonAuth,
      body: JSON.stringify({ now: 'next tuesday' }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_body', status: 400 });
  });

  it('moves the clock in-process with mock.setNow, undone by reset()', async () => {
    mock = inProcessMock();
    mock.mock.setNow('2030-12-06');
    expect(new Date(mock.mock.now()).toISOString()).toMatch(/^2030-12-06T00:00:0/);
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(410);
    mock.mock.reset();
    expect((await request(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(200);
  });

  it('starts the CLI on another day with --now, and says so in its banner', async () => {
    const cli = startCli(['--port', '0', '--now', '2030-12-06', '--log-level', 'warn']);
    const base = await waitForBanner(cli);
    expect(cli.stdout()).toContain('Clock      starts at 2030-12-06T00:00:00.000Z');
    const gone = await fetch(`${base}/pets/1`, { headers: { Authorization: 'Bearer dev-key' } });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual(removed);
  });

  it('refuses to start the CLI with a --now that is no date, with exit code 2', async () => {
    const cli = startCli(['--port', '0', '--now', 'soon']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('--now must be a date such as 2030-12-06');
  });
});

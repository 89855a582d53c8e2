import { afterAll, describe, expect, it } from 'vitest';
import { runRunner } from '../contract/support/run-runner.js';
import { type RunningServer, startMock } from '../support/start-server.js';

// getPet's removal date is in the document (x-sunset: 2030-12-05). Past it, by the suite's clock (--now), getPet is
// no longer in the contract: whether a deployment still serves it is its choice, observed, never failed; the suite
// reads back through listPets instead. Before it, a 410 is a status the document does not list: a failure.
const token = 'test-key';
const afterSunset = '2030-12-06';
const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((server) => server.close())));

async function mock(now?: string): Promise<RunningServer> {
  const server = await startMock(now === undefined ? {} : { now });
  running.push(server);
  return server;
}

const observed = (stdout: string) => stdout.slice(stdout.indexOf('Observed, not specified'));

describe.concurrent('the contract suite past getPet’s removal date', { timeout: 120_000 }, () => {
  it('passes a deployment that answers getPet 410 after the date (the kit’s mock on the same clock), observing it', async () => {
    const server = await mock(afterSunset);
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--now', afterSunset]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped/m);
    expect(observed(result.stdout)).toMatch(
      /getPet: GET \/pets\/\d+ → 410: getPet is past its removal date \(2030-12-05\), and the deployment answers 410 \(code operation_removed\) \(removed-operation/,
    );
    expect(result.stdout).toMatch(
      /✓ getPet › past its removal date \(2030-12-05\) › records whether the deployment still serves it/,
    );
    // Its other checks are not registered: what was written is read back through the list.
    expect(result.stdout).not.toMatch(/getPet › authentication/);
    expect(result.stdout).toMatch(/✓ createPet › makes the created pet readable through listPets/);
    expect(result.stdout).toMatch(/as of 2030-12-06T00:00:\d\d\.\d+Z/);
  });

  it('passes a deployment that still serves getPet after the date, observing that it does, never failing it', async () => {
    const server = await mock();
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--now', afterSunset]);
    expect(result.code).toBe(0);
    expect(observed(result.stdout)).toMatch(
      /getPet: GET \/pets\/\d+ → 200: getPet is past its removal date \(2030-12-05\), and the deployment still serves it \(removed-operation/,
    );
    expect(result.output).not.toMatch(/\[fail\]/);
  });

  it('before the date, fails a deployment that already answers getPet 410', async () => {
    const server = await mock(afterSunset);
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token, '--budget', '0']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /\[fail\] documented-status: GET \/pets\/\d+ → 410: getPet answered 410 \(code operation_removed\) to a valid request; documented: 200, 401, 404/,
    );
  });
});

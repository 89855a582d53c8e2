import { afterEach, describe, expect, it } from 'vitest';
import { killRunningClis, startCli, waitForBanner } from '../cli/start-cli.js';
import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { deprecatedOperationSuite, removedBody } from './suites/deprecated-operation-suite.js';

// The kit's deprecated operations announce their deprecation and act out their removal date (x-sunset) by a
// clock a team can set: in-process (the `now` option, PUT /__admin/clock, mock.setNow) and the CLI's --now.
deprecatedOperationSuite(subjectOf(kitDocument, inProcess));
const removable = kitDocument.facts.deprecated.filter((operation) => operation.sunset && operation.resource);

describe.each(removable)('the CLI past the removal date of $operationId', (operation) => {
  afterEach(() => killRunningClis());
  const resource = operation.resource as NonNullable<typeof operation.resource>;
  const dayAfter = new Date(Date.parse(`${operation.sunset}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it('starts on another day with --now, says so in its banner, and answers 410', async () => {
    const cli = startCli(['--port', '0', '--now', dayAfter, '--log-level', 'warn']);
    const base = await waitForBanner(cli);
    expect(cli.stdout()).toContain(`Clock      starts at ${dayAfter}T00:00:00.000Z`);
    const gone = await fetch(`${base}${resource.itemPath(1)}`, { headers: { Authorization: 'Bearer dev-key' } });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual(removedBody(operation));
  });

  it('refuses to start with a --now that is no date, with exit code 2', async () => {
    const cli = startCli(['--port', '0', '--now', 'soon']);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('--now must be a date such as 2030-12-06');
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyReportJson } from '../../src/proxy/proxy-report.js';
import { startReferenceServer } from '../contract/support/reference-server.js';
import { startMock, type RunningServer } from '../support/start-server.js';
import { killRunningClis, startCli, type Cli } from './start-cli.js';

async function proxyUrl(cli: Cli): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = /Proxy\s+(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(cli.stdout());
    if (match?.[1]) return match[1];
    if (cli.child.exitCode !== null) throw new Error(`exited early: ${cli.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no banner: ${cli.stdout()} ${cli.stderr()}`);
}

describe('petstore-mock proxy', () => {
  let upstream: RunningServer;
  let dir: string;
  const key = 'cli-proxy-key-5a1';
  beforeAll(async () => {
    upstream = await startMock({ keys: [key], scenario: 'one-of-each-status' });
    dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-cli-'));
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(killRunningClis);

  it("writes the JSON report, the JUnit file and the recording when stopped, reporting the client's invalid request without failing", async () => {
    const [report, junit, record] = ['report.json', 'junit.xml', 'pets.yaml'].map((name) => join(dir, name)) as [
      string,
      string,
      string,
    ];
    const cli = startCli([
      'proxy',
      '--upstream',
      upstream.baseUrl,
      '--port',
      '0',
      '--log-level',
      'warn',
      '--report',
      report,
      '--junit',
      junit,
      '--record',
      record,
    ]);
    const base = await proxyUrl(cli);
    expect(cli.stdout()).toContain(`JUnit      ${junit}`);
    expect(cli.stdout()).toContain(`Recording  ${record}`);
    const headers = { Authorization: `Bearer ${key}` };
    expect((await fetch(`${base}/pets`, { headers })).status).toBe(200);
    const invalid = await fetch(`${base}/pets?limit=0`, { headers });
    expect(invalid.headers.get('petstore-violations')).toBe('1');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    const written = JSON.parse(readFileSync(report, 'utf8')) as ProxyReportJson;
    expect(written.exchanges).toBe(2);
    expect(written.client).toMatchObject({ fail: 1, findings: [{ rule: 'request-parameters', side: 'request' }] });
    expect(written.deployment).toMatchObject({ fail: 0, observed: 1, findings: [{ rule: 'open-input' }] });
    expect(written.failed).toBe(false);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="petstore-proxy" tests="\d+" failures="0"/);
    expect(xml).toMatch(
      /<testcase classname="petstore-proxy.client" name="listPets 400">\s*<properties>\s*<property name="fail"/,
    );
    expect(readFileSync(record, 'utf8')).toContain('name: Luna');
    expect(cli.stdout()).toContain('Client: 1 fail, 0 warn, 0 observed');
    expect(cli.stdout()).toContain('Nothing fails (--fail-on deployment).');
    expect(cli.stdout()).toMatch(/listPets\s+400\s+1\s+\(not in the document!\)/);
    // One JSON line per finding that is not an observation on the log, the key in none of them.
    const logged = cli
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"finding"'));
    expect(logged).toHaveLength(1);
    expect(cli.stdout() + readFileSync(report, 'utf8') + xml).not.toContain(key);
  });

  it('exits 1 on a failing finding of the side --fail-on names, with the JUnit failures to match', async () => {
    const junit = join(dir, 'client.xml');
    const cli = startCli([
      'proxy',
      '--upstream',
      upstream.baseUrl,
      '--port',
      '0',
      '--log-level',
      'silent',
      '--fail-on',
      'client',
      '--junit',
      junit,
    ]);
    const base = await proxyUrl(cli);
    await fetch(`${base}/pets?limit=0`, { headers: { Authorization: `Bearer ${key}` } });
    await fetch(`${base}/orders`, { headers: { Authorization: `Bearer ${key}` } });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(1);
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="petstore-proxy" tests="\d+" failures="2"/);
    expect(cli.stdout()).toContain('2 failing finding(s) (--fail-on client).');
  });

  it('exits 1 when the deployment breaks the document', async () => {
    const broken = await startReferenceServer({ token: key, breakage: 'invalid-pet-in-list' });
    try {
      const cli = startCli(['proxy', '--upstream', broken.baseUrl, '--port', '0', '--log-level', 'silent']);
      const base = await proxyUrl(cli);
      await fetch(`${base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(1);
      expect(cli.stdout()).toContain('Deployment: 1 fail');
    } finally {
      await broken.close();
    }
  });

  it('exits 0 when the traffic broke nothing', async () => {
    const cli = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0', '--log-level', 'silent']);
    const base = await proxyUrl(cli);
    expect((await fetch(`${base}/pets/1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('Nothing fails (--fail-on deployment).');
  });

  it.each([
    [[], 'an upstream is required: pass --upstream URL'],
    [['--upstream', 'http://127.0.0.1:1'], "--upstream must be the API's base address, ending with /v1"],
    [['--upstream', 'ftp://example/v1'], '--upstream must be an http(s) URL'],
    [['--upstream', 'http://x/v1', '--timeout', '0'], '--timeout must be a whole number from 1 to 600000, got "0"'],
    [['--upstream', 'http://x/v1', '--fail-on', 'everyone'], '--fail-on must be one of deployment, client, any, none'],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const cli = startCli(['proxy', ...args]);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(message);
  });
});

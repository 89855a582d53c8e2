import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyReportJson } from '../../src/proxy/proxy-report.js';
import { startReferenceServer } from '../contract/support/reference-server.js';
import { startMock, type RunningServer } from '../support/start-server.js';
import { killRunningClis, startCli, waitForProxyBanner } from './start-cli.js';

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
    const base = await waitForProxyBanner(cli);
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
    const base = await waitForProxyBanner(cli);
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
      const base = await waitForProxyBanner(cli);
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
    const base = await waitForProxyBanner(cli);
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

  it('takes its own admin key from --token, shows it in the banner only when it is dev-key, and refuses dev-key then', async () => {
    const plain = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0', '--log-level', 'silent']);
    await waitForProxyBanner(plain);
    expect(plain.stdout()).toMatch(/Dashboard {2}http:\/\/127\.0\.0\.1:\d+\/__admin\/ui \(key dev-key\)/);

    const cli = startCli([
      'proxy',
      '--upstream',
      upstream.baseUrl,
      '--port',
      '0',
      '--log-level',
      'silent',
      '--token',
      'proxy-secret-1',
    ]);
    const admin = `${new URL(await waitForProxyBanner(cli)).origin}/__admin/violations`;
    expect(cli.stdout()).toContain('/__admin/ui (1 key(s) from --token, not shown)');
    expect(cli.stdout()).not.toContain('proxy-secret-1');
    expect((await fetch(admin, { headers: { Authorization: 'Bearer dev-key' } })).status).toBe(401);
    expect((await fetch(admin, { headers: { Authorization: 'Bearer proxy-secret-1' } })).status).toBe(200);
    // The API's keys are the upstream's: the proxy's own key does not gate /v1.
    expect(
      (await fetch(`${new URL(admin).origin}/v1/pets/1`, { headers: { Authorization: `Bearer ${key}` } })).status,
    ).toBe(200);
  });

  it('reads PETSTORE_TOKEN, and refuses an empty one with exit code 2', async () => {
    const cli = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0', '--log-level', 'silent'], {
      PETSTORE_TOKEN: 'env-proxy-key',
    });
    const admin = `${new URL(await waitForProxyBanner(cli)).origin}/__admin/violations`;
    expect(cli.stdout()).toContain('(1 key(s) from PETSTORE_TOKEN, not shown)');
    expect((await fetch(admin, { headers: { Authorization: 'Bearer env-proxy-key' } })).status).toBe(200);
    expect((await fetch(admin, { headers: { Authorization: 'Bearer dev-key' } })).status).toBe(401);
    const empty = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0'], { PETSTORE_TOKEN: '' });
    expect(await empty.exited).toBe(2);
    expect(empty.stderr()).toContain('PETSTORE_TOKEN is set but empty');
  });

  it.each([
    ['--report', 'missing/report.json', 'does not exist'],
    ['--junit', 'missing/junit.xml', 'does not exist'],
    ['--record', 'missing/pets.yaml', 'does not exist'],
    ['--record', 'read-only/pets.yaml', 'does not take new files'],
  ])(
    'refuses to start with %s into a folder it cannot write (%s), in one line, exit code 2',
    async (flag, file, why) => {
      const readOnly = join(dir, 'read-only');
      if (!existsSync(readOnly)) {
        mkdirSync(readOnly);
        chmodSync(readOnly, 0o555);
      }
      // Root writes into a mode-555 folder; sysfs takes no new file from anyone.
      const path = file.startsWith('read-only/') && process.getuid?.() === 0 ? '/sys/pets.yaml' : join(dir, file);
      const cli = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0', flag, path]);
      expect(await cli.exited).toBe(2);
      const folder = path.slice(0, path.lastIndexOf('/'));
      expect(cli.stderr()).toMatch(new RegExp(`^petstore-mock proxy: ${flag} ${path}: the folder ${folder} ${why}`));
      expect(cli.stderr().trim().split('\n')).toHaveLength(1);
      expect(cli.stdout()).not.toContain('Proxy ');
    },
  );

  it('still writes the other files when one cannot be written at stop, and exits 1 naming it', async () => {
    const gone = join(dir, 'removed-while-running');
    mkdirSync(gone);
    const [report, junit, record] = [join(gone, 'report.json'), join(dir, 'kept-junit.xml'), join(dir, 'kept.yaml')];
    const cli = startCli([
      'proxy',
      '--upstream',
      upstream.baseUrl,
      '--port',
      '0',
      '--log-level',
      'silent',
      '--report',
      report,
      '--junit',
      junit,
      '--record',
      record,
    ]);
    const base = await waitForProxyBanner(cli);
    expect((await fetch(`${base}/pets/1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    rmSync(gone, { recursive: true });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toContain(`Not written: --report ${report}: cannot be written: ENOENT`);
    expect(cli.stdout()).toContain('Nothing fails (--fail-on deployment).');
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite');
    expect(readFileSync(record, 'utf8')).toContain('name: Bella');
  });
});

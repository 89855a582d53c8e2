import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

  it('writes the JSON report, the JUnit file and the recording when stopped, and exits 1 on violations', async () => {
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
    const headers = { Authorization: `Bearer ${key}` };
    expect((await fetch(`${base}/pets`, { headers })).status).toBe(200);
    const invalid = await fetch(`${base}/pets?limit=0`, { headers });
    expect(invalid.headers.get('petstore-violations')).toBe('2');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(1);
    const written = JSON.parse(readFileSync(report, 'utf8')) as { violations: unknown[]; exchanges: number };
    expect(written.exchanges).toBe(2);
    expect(written.violations).toHaveLength(2);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase classname="petstore-proxy" name="listPets 400 \(not documented\)">\s*<failure/,
    );
    expect(readFileSync(record, 'utf8')).toContain('name: Luna');
    expect(cli.stdout()).toContain('2 violation(s) of the document.');
    expect(cli.stdout()).toMatch(/listPets\s+400\s+1\s+\(not in the document!\)/);
    // One JSON line per violation on the log, the key in none of them.
    const logged = cli
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"violation"'));
    expect(logged).toHaveLength(2);
    expect(cli.stdout() + readFileSync(report, 'utf8') + readFileSync(junit, 'utf8')).not.toContain(key);
  });

  it('exits 0 when the traffic broke nothing', async () => {
    const cli = startCli(['proxy', '--upstream', upstream.baseUrl, '--port', '0', '--log-level', 'silent']);
    const base = await proxyUrl(cli);
    expect((await fetch(`${base}/pets/1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('No violation of the document.');
  });

  it.each([
    [[], 'an upstream is required: pass --upstream URL'],
    [['--upstream', 'http://127.0.0.1:1'], "--upstream must be the API's base address, ending with /v1"],
    [['--upstream', 'ftp://example/v1'], '--upstream must be an http(s) URL'],
    [['--upstream', 'http://x/v1', '--timeout', '0'], '--timeout must be a whole number from 1 to 600000, got "0"'],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const cli = startCli(['proxy', ...args]);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(message);
  });
});

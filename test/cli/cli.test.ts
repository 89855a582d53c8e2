import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../support/temporary-folder.js';
import { killRunningClis, startCli, waitForBanner } from './start-cli.js';

afterEach(killRunningClis);

describe('petstore-mock', () => {
  it('prints the base URL, the key and a curl line, and answers at once', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent']);
    const baseUrl = await waitForBanner(cli);
    expect(cli.stdout()).toContain('Key        dev-key');
    expect(cli.stdout()).toContain(`curl -H "Authorization: Bearer dev-key" "${baseUrl}/pets?limit=5"`);
    const response = await fetch(`${baseUrl}/pets?limit=5`, { headers: { Authorization: 'Bearer dev-key' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(5);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('shuts down cleanly with exit code 0 on %s', async (signal) => {
    const cli = startCli(['--port', '0', '--log-level', 'silent']);
    const baseUrl = await waitForBanner(cli);
    await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Bearer dev-key' } });
    cli.child.kill(signal);
    expect(await cli.exited).toBe(0);
  });

  it('reads its settings from PETSTORE_* variables, and flags win over them', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--pets', '4'], {
      PETSTORE_PETS: '9',
      PETSTORE_TOKEN: 'alpha,beta',
    });
    const baseUrl = await waitForBanner(cli);
    const response = await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Bearer beta' } });
    expect(await response.json()).toHaveLength(4);
  });

  it('does not print a key the user chose, and gives a Try line that works once the key is put in', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--token', 'my-secret-key']);
    const baseUrl = await waitForBanner(cli);
    expect(cli.stdout()).not.toContain('my-secret-key');
    expect(cli.stdout()).toContain(`curl -H "Authorization: Bearer YOUR_KEY" "${baseUrl}/pets?limit=5"`);
    expect(cli.stdout()).toContain('(put one of your keys in place of YOUR_KEY)');
  });

  it('names $PETSTORE_TOKEN in the Try line when the variable holds the one key', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent'], { PETSTORE_TOKEN: 'env-secret' });
    await waitForBanner(cli);
    expect(cli.stdout()).toContain('Authorization: Bearer $PETSTORE_TOKEN');
    expect(cli.stdout()).not.toContain('env-secret');
    const several = startCli(['--port', '0', '--log-level', 'silent'], { PETSTORE_TOKEN: 'one-secret,two-secret' });
    await waitForBanner(several);
    expect(several.stdout()).toContain('Authorization: Bearer YOUR_KEY');
    expect(several.stdout()).not.toContain('-secret');
  });

  it('shows latency, max pets and a scenario file in the banner when they are set', async () => {
    const dir = temporaryFolder('petstore-banner-');
    const file = join(dir, 'two-cats.yaml');
    writeFileSync(
      file,
      'description: Two cats\npets:\n  - { id: 1, name: Tom, categoryId: 2 }\n  - { id: 2, name: Kit, categoryId: 2 }\n',
    );
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--latency', '5-20', '--max-pets', '300'], {
      PETSTORE_SCENARIO: file,
    });
    await waitForBanner(cli);
    expect(cli.stdout()).toContain(`Scenario   two-cats (${file})`);
    expect(cli.stdout()).toContain('Latency    5-20 ms per request');
    expect(cli.stdout()).toContain('Max items  300 of each collection per session');
    const plain = startCli(['--port', '0', '--log-level', 'silent']);
    await waitForBanner(plain);
    expect(plain.stdout()).not.toMatch(/Latency|Max pets/);
  });

  it('resolves a relative --scenario against INIT_CWD, the folder npm was run from', async () => {
    const dir = temporaryFolder('petstore-init-cwd-');
    writeFileSync(join(dir, 'mine.yaml'), 'description: Mine\npets:\n  - { id: 7, name: Seven, categoryId: 1 }\n');
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--scenario', 'mine.yaml'], { INIT_CWD: dir });
    const baseUrl = await waitForBanner(cli);
    const response = await fetch(`${baseUrl}/pets/7`, { headers: { Authorization: 'Bearer dev-key' } });
    expect(response.status).toBe(200);
  });

  it('refuses an empty PETSTORE_TOKEN, as a CI secret that is missing, with exit code 2', async () => {
    const cli = startCli(['--port', '0'], { PETSTORE_TOKEN: '' });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr().split('\n')[0]).toBe(
      'petstore-mock: PETSTORE_TOKEN is set but empty: set it to a key (or several, comma-separated), or unset it to use dev-key',
    );
  });

  it('writes one line per request for people with --log-format pretty', async () => {
    const cli = startCli(['--port', '0', '--log-format', 'pretty']);
    const baseUrl = await waitForBanner(cli);
    await fetch(`${baseUrl}/pets?limit=1`, { headers: { Authorization: 'Bearer dev-key' } });
    cli.child.kill('SIGTERM');
    await cli.exited;
    expect(cli.stdout()).toMatch(/INFO: GET \/v1\/pets\?limit=1 200 [\d.]+ ms\n/);
    expect(cli.stdout()).not.toContain('"level"');
  });

  it('logs requests without their Authorization header', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'info', '--token', 'my-secret-key']);
    const baseUrl = await waitForBanner(cli);
    await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Bearer my-secret-key' } });
    await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Bearer wrong-secret-key' } });
    cli.child.kill('SIGTERM');
    await cli.exited;
    expect(cli.stdout()).toContain('"statusCode":401');
    expect(cli.stdout()).not.toContain('secret-key');
  });

  it.each([
    [['--port', 'abc'], '--port'],
    [['--latency', '300-100'], '--latency'],
    [['--log-level', 'loud'], '--log-level'],
    [['--frobnicate'], 'frobnicate'],
    [['--pets', '-1'], '--pets'],
    [['--max-pets', '0'], '--max-pets'],
  ])('exits 2 with a one-line reason for %j', async (args, words) => {
    const cli = startCli(args);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(words);
    expect(cli.stderr()).not.toContain('    at ');
  });

  it('refuses to start with a broken fixture, naming the file and the field', async () => {
    const dir = temporaryFolder('petstore-cli-');
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'description: broken\npets:\n  - { id: 1, name: Ada, categoryId: "3" }\n');
    const cli = startCli(['--port', '0', '--scenario', file]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('broken.yaml');
    expect(cli.stderr()).toContain("'pets[0].categoryId'");
  });

  it('refuses to start with a scenario larger than --max-store-bytes, saying to raise it', async () => {
    const cli = startCli(['--port', '0', '--scenario', 'large', '--max-store-bytes', '4KiB']);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toMatch(
      /^petstore-mock: cannot start: scenario 'large' holds \d+ bytes of pets \(as JSON\), more than --max-store-bytes allows \(4096\); raise --max-store-bytes\n$/,
    );
  });

  it('refuses to start with a scenario larger than --max-pets, saying to raise it', async () => {
    const cli = startCli(['--port', '0', '--scenario', 'large', '--max-pets', '100']);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(
      "petstore-mock: cannot start: scenario 'large' holds 250 pets, more than --max-pets allows (100); raise --max-pets\n",
    );
  });

  it('refuses to start with an unknown scenario name, listing the known ones', async () => {
    const cli = startCli(['--port', '0', '--scenario', 'nope']);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain("unknown scenario 'nope'");
    expect(cli.stderr()).toContain('one-of-each-status');
  });

  it('says clearly when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const cli = startCli(['--port', String(port), '--log-level', 'silent']);
      expect(await cli.exited).toBe(1);
      expect(cli.stderr()).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });

  it('prints every flag and its variable for --help', async () => {
    const cli = startCli(['--help']);
    expect(await cli.exited).toBe(0);
    for (const words of [
      '--port',
      'PETSTORE_PORT',
      '--token',
      '--scenario',
      '--latency',
      '--log-level',
      '--seed',
      '--pets',
      '--max-pets',
      'PETSTORE_MAX_PETS',
      '--state-file',
      'PETSTORE_STATE_FILE',
    ]) {
      expect(cli.stdout()).toContain(words);
    }
  });
});

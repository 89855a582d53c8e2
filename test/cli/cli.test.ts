import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('does not print a key the user chose', async () => {
    const cli = startCli(['--port', '0', '--log-level', 'silent', '--token', 'my-secret-key']);
    await waitForBanner(cli);
    expect(cli.stdout()).not.toContain('my-secret-key');
    expect(cli.stdout()).toContain('$PETSTORE_TOKEN');
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
    const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'description: broken\npets:\n  - { id: 1, name: Ada, categoryId: "3" }\n');
    const cli = startCli(['--port', '0', '--scenario', file]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('broken.yaml');
    expect(cli.stderr()).toContain("'pets[0].categoryId'");
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

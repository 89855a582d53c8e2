import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { NumberLiteral } from '../../../src/core/json/exact-json.js';
import { curlCommand, shellQuote } from '../../../src/contract/explore/curl-command.js';

const run = promisify(execFile);

/** What bash makes of a curl line: the words it passes to curl. */
async function wordsOf(line: string): Promise<string[]> {
  const { stdout } = await run('bash', ['-c', `printf '%s\\0' ${line.replace(/^curl /, '')}`], {
    env: { ...process.env, BASE: 'http://127.0.0.1:4010/v1', CONTRACT_TOKEN: 'the-key' },
    encoding: 'utf8',
  });
  return stdout.split('\0').slice(0, -1);
}

describe('curlCommand', () => {
  it('writes a GET with its query, the key as $CONTRACT_TOKEN and the headers the suite sends', async () => {
    const line = curlCommand({ method: 'GET', path: '/pets', query: { status: 'sold', limit: '100' } });
    expect(line).toBe(
      `curl "$BASE/pets?status=sold&limit=100" -H "Authorization: Bearer $CONTRACT_TOKEN" -H 'Accept: application/json'`,
    );
    expect(await wordsOf(line)).toEqual([
      'http://127.0.0.1:4010/v1/pets?status=sold&limit=100',
      '-H',
      'Authorization: Bearer the-key',
      '-H',
      'Accept: application/json',
    ]);
  });

  it('writes a POST body as the exact JSON sent: ids beyond 2^53, 7.0, quotes and backslashes as they were', async () => {
    const body = {
      name: `it's "Zoë" \\ $HOME \`id\``,
      categoryId: 9223372036854775807n,
      weight: new NumberLiteral('7.0'),
    };
    const line = curlCommand({ method: 'POST', path: '/pets', body: { json: body } });
    const words = await wordsOf(line);
    expect(words.slice(0, 2)).toEqual(['-X', 'POST']);
    expect(words.at(-2)).toBe('-d');
    expect(words.at(-1)).toBe(
      '{"name":"it\'s \\"Zoë\\" \\\\ $HOME `id`","categoryId":9223372036854775807,"weight":7.0}',
    );
    expect(words).toContain('Content-Type: application/json');
  });

  it('sends a raw body starting with @ with --data-raw, so that curl does not read a file', async () => {
    const line = curlCommand({ method: 'POST', path: '/pets', body: { raw: '@/etc/passwd' } });
    expect((await wordsOf(line)).slice(-2)).toEqual(['--data-raw', '@/etc/passwd']);
  });

  it('quotes a path that is not plain, and adds the extra headers of the run', async () => {
    const line = curlCommand({ method: 'GET', path: "/pets/it's" }, { 'petstore-session': 'w1' });
    const words = await wordsOf(line);
    expect(words[0]).toBe("http://127.0.0.1:4010/v1/pets/it's");
    expect(words).toContain('petstore-session: w1');
  });
});

describe('shellQuote', () => {
  it('gives bash back every text as it was', async () => {
    const texts = ["'", "a'b''c", '$(rm -rf /)', '\\n\n\t', 'emoji 👩‍👩‍👧', ''];
    const { stdout } = await run('bash', ['-c', `printf '%s\\0' ${texts.map(shellQuote).join(' ')}`], {
      encoding: 'utf8',
    });
    expect(stdout.split('\0').slice(0, -1)).toEqual(texts);
  });
});

import { describe, expect, it } from 'vitest';
import { parseContractOptions, parseHeaderFlags, UsageError } from '../../src/contract/contract-options.js';
import { createRedactor, looksLikeCredential } from '../../src/core/http/redact-credentials.js';
import { describeHeaders, secretsOf } from '../../src/contract/run-secrets.js';
import { parseOptions } from '../../src/config/parse-options.js';

describe('parseContractOptions', () => {
  it('reads every flag', () => {
    const options = parseContractOptions(
      [
        '--base-url',
        'https://staging.example/v1/',
        '--token',
        'k',
        '--read-only',
        '--junit',
        'j.xml',
        '--json',
        'r.json',
        '--timeout',
        '900',
        '--header',
        'Petstore-Session: w1',
        '--header',
        'X-Trace:  a b ',
        '--strict',
        '--settle',
        '2500',
        '--budget',
        '40',
        '--seed',
        '7',
        '--concurrency',
        '8',
        '--duration',
        '60',
        '--document',
        'evolved.yaml',
        '--now',
        '2030-12-06',
      ],
      {},
    );
    expect(options).toEqual({
      document: 'evolved.yaml',
      now: Date.UTC(2030, 11, 6),
      baseUrl: 'https://staging.example/v1',
      token: 'k',
      readOnly: true,
      strict: true,
      settleMs: 2500,
      budget: 40,
      concurrency: 8,
      durationMs: 60_000,
      seed: 7,
      junitFile: 'j.xml',
      jsonFile: 'r.json',
      timeoutMs: 900,
      headers: { 'petstore-session': 'w1', 'x-trace': 'a b' },
    });
  });

  it('defaults to a 5 s settle window, a budget of 150 exploring requests, 4 at once, no duration and the fixed seed', () => {
    expect(parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k'], {})).toMatchObject({
      strict: false,
      settleMs: 5000,
      budget: 150,
      concurrency: 4,
      durationMs: 0,
      seed: undefined,
    });
    // One at a time: 1, or 0 read as 1.
    for (const one of ['0', '1'])
      expect(
        parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', '--concurrency', one], {}),
      ).toMatchObject({ concurrency: 1 });
  });

  it('reads --now as a date-time, or a date alone as the start of that day in UTC, and defaults to no fixed moment', () => {
    const at = (now: string) => parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', '--now', now], {});
    expect(at('2030-12-05')).toMatchObject({ now: Date.UTC(2030, 11, 5) });
    expect(at('2030-12-05T12:30:00+01:00')).toMatchObject({ now: Date.UTC(2030, 11, 5, 11, 30) });
    expect(parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k'], {})).toMatchObject({
      now: undefined,
      document: undefined,
    });
  });

  it.each([
    // What Date.parse took and read its own way: a day that rolls into March, the machine's time zone, a year 2001.
    ['2030-02-31', 'it is not a real date and time of the calendar'],
    ['2030-02-31T00:00:00Z', 'it is not a real date and time of the calendar'],
    ['2030-12-06T09:30', 'it is not an RFC 3339 date'],
    ['2030-12-06T09:30:00', 'it is not an RFC 3339 date'],
    ['December 6, 2030', 'it is not an RFC 3339 date'],
    ['Fri, 06 Dec 2030 00:00:00 GMT', 'it is not an RFC 3339 date'],
    ['1', 'it is not an RFC 3339 date'],
    [' 2030-12-06', 'it is not an RFC 3339 date'],
    ['2030-12-06T23:59:60Z', 'it names a leap second'],
    ['2030-12-06T09:30:00.1234Z', 'it holds a fraction of a second finer than the milliseconds'],
    ['0000-01-01T00:00:00+01:00', 'once its offset is applied it falls outside the years 0000 to 9999'],
  ])('refuses --now %j as the mock’s clock does, saying why: %s', (now, why) => {
    const run = () => parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', '--now', now], {});
    expect(run).toThrow(UsageError);
    expect(run).toThrow(`--now must be a date such as 2030-12-06 or a date-time such as 2030-12-06T09:30:00Z`);
    expect(run).toThrow(`got ${JSON.stringify(now)}: ${why}`);
  });

  it('reads --now exactly as the mock reads its own --now: the same moment for every value both take', () => {
    for (const now of [
      '2030-12-06',
      '2030-12-06T09:30:00.250+01:00',
      '0001-01-01t00:00:00z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      const { now: mockNow } = parseOptions(['--now', now], {});
      expect(mockNow).toBeTypeOf('number');
      expect(parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', '--now', now], {})).toMatchObject({
        now: mockNow,
      });
    }
  });

  it.each([
    [
      ['--now', 'after the sunset'],
      '--now must be a date such as 2030-12-06 or a date-time such as 2030-12-06T09:30:00Z, from year 0000 to 9999; got "after the sunset": it is not an RFC 3339 date',
    ],
    [['--settle', 'soon'], "--settle must be a whole number from 0 to 600000, found 'soon'"],
    [['--budget', 'lots'], "--budget must be a whole number from 0 to 100000, found 'lots'"],
    [['--seed', '1.5'], "--seed must be a whole number from 0 to 2147483647, found '1.5'"],
    [['--concurrency', '65'], "--concurrency must be a whole number from 0 to 64, found '65'"],
    [['--duration', '1m'], "--duration must be a whole number from 0 to 86400, found '1m'"],
  ])('refuses %j with a message naming the flag', (flags, message) => {
    expect(() => parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', ...flags], {})).toThrow(message);
  });

  it('answers --version and --help before asking for anything else', () => {
    expect(parseContractOptions(['--version'], {})).toBe('version');
    expect(parseContractOptions(['--help'], {})).toBe('help');
  });

  it('falls back to CONTRACT_BASE_URL and CONTRACT_TOKEN, flags winning over them', () => {
    const env = { CONTRACT_BASE_URL: 'http://127.0.0.1:1/v1', CONTRACT_TOKEN: 'from-env' };
    expect(parseContractOptions([], env)).toMatchObject({
      baseUrl: 'http://127.0.0.1:1/v1',
      token: 'from-env',
      readOnly: false,
      timeoutMs: 5000,
    });
    expect(parseContractOptions(['--token', 'from-flag'], env)).toMatchObject({ token: 'from-flag' });
  });

  it.each([
    [[], /a base URL is required/],
    [['--base-url', 'http://h/v1'], /an API key is required/],
    [['--base-url', 'ftp://h/v1', '--token', 'k'], /must be http or https/],
    [['--base-url', 'not a url', '--token', 'k'], /is not a URL/],
    [['--base-url', 'http://u:p@h/v1', '--token', 'k'], /must not carry credentials/],
    [['--base-url', 'http://h/v1', '--token', 'k', '--timeout', '0'], /--timeout must be a whole number/],
    [['--base-url', 'http://h/v1', '--token', 'k', '--timeout', '2s'], /--timeout must be a whole number/],
    [['--base-url', 'http://h/v1', '--token', 'k', '--verbose'], /Unknown option '--verbose'/],
    [['--base-url', 'http://h/v1', '--token', 'k', 'extra'], /Unexpected argument 'extra'/],
  ])('rejects %j with a one-line reason', (argv, reason) => {
    expect(() => parseContractOptions(argv, {})).toThrow(UsageError);
    expect(() => parseContractOptions(argv, {})).toThrow(reason);
  });

  it.each([
    [['Petstore-Session w1'], /--header must be 'Name: value'/],
    [[': w1'], /--header must be 'Name: value'/],
    [['Bad Name: w1'], /--header must be 'Name: value'/],
    [['X-A: one\ntwo'], /must not contain line breaks or control characters/],
    [['Authorization: Bearer x'], /not allowed: pass the key with --token/],
    [['content-type: text/plain'], /not allowed/],
    [['Host: example'], /not allowed/],
    [['X-A: 1', 'x-a: 2'], /--header 'x-a' is given twice/],
  ])('rejects --header %j with a one-line reason', (flags, reason) => {
    expect(() => parseHeaderFlags(flags)).toThrow(UsageError);
    expect(() => parseHeaderFlags(flags)).toThrow(reason);
  });

  it('never repeats a malformed --header in its complaint, as its value may be a secret', () => {
    expect(() => parseHeaderFlags(['X-Key=sk_live_abc123'])).toThrow(/^(?!.*sk_live).*$/);
  });

  it('rejects --json for the Dredd runner, which writes no JSON report', () => {
    expect(() =>
      parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', '--json', 'r.json'], {}, { allowJson: false }),
    ).toThrow(/Unknown option '--json'/);
  });
});

describe('createRedactor', () => {
  it('hides the key, its URL-encoded, base64 and JSON-escaped forms', () => {
    const redact = createRedactor('s3cr/t+key"x');
    const key = 's3cr/t+key"x';
    const text = `Bearer ${key} ${encodeURIComponent(key)} ${Buffer.from(key).toString('base64')} ${JSON.stringify({ k: key })}`;
    expect(redact(text)).toBe('Bearer [redacted] [redacted] [redacted] {"k":"[redacted]"}');
  });

  it('hides a key of 8 characters or more wherever it appears, even inside other text', () => {
    expect(createRedactor('abcd1234')('xabcd1234y')).toBe('x[redacted]y');
  });

  it('hides a short key only where it stands as a credential, so that ordinary output stays intact', () => {
    const pets = createRedactor('pets');
    expect(pets('GET /pets?limit=1 → 401; 4 pets listed; Created pets: none; petsx')).toBe(
      'GET /pets?limit=1 → 401; 4 pets listed; Created pets: none; petsx',
    );
    expect(pets('{"received":"Bearer pets"} Basic pets "pets" token=pets api_key: pets')).toBe(
      '{"received":"Bearer [redacted]"} Basic [redacted] "[redacted]" token=[redacted] api_key: [redacted]',
    );
    expect(pets(`Basic ${Buffer.from('pets').toString('base64')}`)).toBe('Basic [redacted]');
    const digits = createRedactor('127');
    expect(digits('http://127.0.0.1:4010/v1 limit=127 → 1270 ms; Bearer 127')).toBe(
      'http://127.0.0.1:4010/v1 limit=127 → 1270 ms; Bearer [redacted]',
    );
  });

  it('counts the near-keys of the authentication checks and credential headers among the secrets', () => {
    const secrets = secretsOf('Key-12345', { 'petstore-session': 'w1', 'x-api-key': 'k1' });
    expect(secrets).toEqual(['Key-12345', 'kEY-12345', 'Key-12345x', 'Key-1234', 'Key-1234x', 'Key-1xxxx', 'k1']);
  });
});

describe('looksLikeCredential', () => {
  it.each([
    ['authorization', 'x'],
    ['proxy-authorization', 'Basic dXNlcjpwYXNz'],
    ['cookie', 'a=b'],
    ['x-api-key', 'k'],
    ['x-auth-token', 'k'],
    ['x-session-id', 's'],
    ['x-anything', 'Bearer abc'],
    ['x-anything', 'sk_live_51H8cXq2eZvKYlo2C'],
  ])('takes %s: %s for a credential', (name, value) => {
    expect(looksLikeCredential(name, value)).toBe(true);
  });

  it.each([
    ['petstore-session', 'w1'],
    ['x-request-id', 'build-42'],
    ['accept-language', 'en-GB'],
  ])('prints %s: %s as it is', (name, value) => {
    expect(looksLikeCredential(name, value)).toBe(false);
  });

  it('describes the extra headers with credential values hidden', () => {
    expect(describeHeaders({ 'petstore-session': 'w1', 'x-api-key': 'secret' })).toBe(
      'petstore-session: w1, x-api-key: [redacted]',
    );
  });
});

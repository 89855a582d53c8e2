import { describe, expect, it } from 'vitest';
import { parseContractOptions, UsageError } from '../../src/contract/contract-options.js';
import { createRedactor } from '../../src/contract/redact.js';

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
      ],
      {},
    );
    expect(options).toEqual({
      baseUrl: 'https://staging.example/v1',
      token: 'k',
      readOnly: true,
      junitFile: 'j.xml',
      jsonFile: 'r.json',
      timeoutMs: 900,
    });
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

  it('rejects --json for the Dredd runner, which writes no JSON report', () => {
    expect(() =>
      parseContractOptions(['--base-url', 'http://h/v1', '--token', 'k', '--json', 'r.json'], {}, { allowJson: false }),
    ).toThrow(/Unknown option '--json'/);
  });
});

describe('createRedactor', () => {
  it('hides the key, its URL-encoded and its base64 form', () => {
    const redact = createRedactor('s3cr/t+key');
    const text = `Bearer s3cr/t+key ${encodeURIComponent('s3cr/t+key')} ${Buffer.from('s3cr/t+key').toString('base64')}`;
    expect(redact(text)).toBe('Bearer [REDACTED] [REDACTED] [REDACTED]');
  });
});

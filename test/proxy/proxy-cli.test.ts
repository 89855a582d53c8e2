import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bindWarning, browserAccess, UsageError } from '../../src/config/parse-options.js';
import { cannotWrite, parseProxyOptions, proxyFlags, proxyUsage } from '../../src/proxy/proxy-cli.js';
import { caught } from '../support/caught.js';

const upstream = ['--upstream', 'https://staging.example/v1'];
const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const options = parseProxyOptions([...upstream, ...argv], env);
  if (options === 'help') throw new Error('help');
  return options;
};
const usageError = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  caught(UsageError, () => parseProxyOptions([...upstream, ...argv], env), JSON.stringify(argv));

describe('parseProxyOptions', () => {
  it('keeps the admin API on dev-key, loopback origins and hosts by default', () => {
    expect(parse([])).toEqual({
      upstream: 'https://staging.example/v1',
      host: '127.0.0.1',
      port: 4011,
      keys: ['dev-key'],
      keysFrom: 'the default',
      corsOrigins: [],
      allowedHosts: [],
      logLevel: 'info',
      enforce: false,
      failOn: 'deployment',
      strict: false,
      settleMs: 5_000,
      timeoutMs: 30_000,
      report: undefined,
      junit: undefined,
      record: undefined,
      document: undefined,
      partitionHeaders: [],
      sharedCredentials: false,
      pidFile: undefined,
    });
  });

  it('takes --document and the headers that partition the data, refusing one that is no header name', () => {
    expect(parse(['--document', 'mine.yaml', '--partition-header', 'X-Tenant'])).toMatchObject({
      document: 'mine.yaml',
      partitionHeaders: ['x-tenant'],
      sharedCredentials: false,
    });
    expect(parse(['--shared-credentials']).sharedCredentials).toBe(true);
    expect(parse([], { PETSTORE_DOCUMENT: 'env.yaml' }).document).toBe('env.yaml');
    expect(usageError(['--partition-header', 'x tenant']).message).toBe(
      '--partition-header must be a header name, got "x tenant"',
    );
  });

  it('takes --pid-file, or PETSTORE_PID_FILE, as the mock does', () => {
    expect(parse(['--pid-file', 'proxy.pid']).pidFile).toBe('proxy.pid');
    expect(parse([], { PETSTORE_PID_FILE: 'from-env.pid' }).pidFile).toBe('from-env.pid');
  });

  it('takes its own keys from --token or PETSTORE_TOKEN, as the mock does', () => {
    expect(parse(['--token', 'a', '--token', 'b'])).toMatchObject({ keys: ['a', 'b'], keysFrom: '--token' });
    expect(parse([], { PETSTORE_TOKEN: 'x, y' })).toMatchObject({ keys: ['x', 'y'], keysFrom: 'PETSTORE_TOKEN' });
    expect(parse(['--token', 'a'], { PETSTORE_TOKEN: 'x' }).keys).toEqual(['a']);
    expect(usageError([], { PETSTORE_TOKEN: '' }).message).toContain('PETSTORE_TOKEN is set but empty');
    expect(usageError(['--token', 'a b']).message).toBe('--token must hold non-empty keys without spaces');
  });

  it('takes --cors-origin and --allowed-host, or their variables, checked as the mock checks them', () => {
    const options = parse(['--cors-origin', 'https://app.team.internal', '--allowed-host', 'proxy.team.internal']);
    expect(options).toMatchObject({
      corsOrigins: ['https://app.team.internal'],
      allowedHosts: ['proxy.team.internal'],
    });
    expect(parse([], { PETSTORE_ALLOWED_HOST: 'all' }).allowedHosts).toBe('all');
    expect(usageError(['--cors-origin', 'null']).message).toContain('--cors-origin must be an origin');
    expect(usageError(['--allowed-host', 'a.test:1']).message).toContain('--allowed-host must be a host name');
    expect(browserAccess(parse(['--host', '0.0.0.0'])).hosts).toEqual({ allowed: [], anyAddress: true });
  });

  it('warns, as the mock does, on a bind beyond loopback with only the default key', () => {
    expect(bindWarning(parse(['--host', '0.0.0.0']))).toContain("with only the default key 'dev-key'. Set --token.");
    expect(bindWarning(parse(['--host', '0.0.0.0', '--token', 'k']))).toBeUndefined();
    expect(bindWarning(parse([]))).toBeUndefined();
  });

  it('lists every flag of its table in the usage text, with its variable, and parses each', () => {
    for (const [name, flag] of Object.entries(proxyFlags)) {
      expect(proxyUsage).toMatch(new RegExp(`^  --${name}\\b`, 'm'));
      if ('env' in flag) expect(proxyUsage).toContain(`env ${flag.env}`);
      const argv = flag.type === 'boolean' ? [`--${name}`] : [`--${name}=x`];
      try {
        parseProxyOptions(name === 'upstream' ? argv : [...upstream, ...argv], {});
      } catch (error) {
        expect((error as Error).message).not.toMatch(/Unknown option/);
      }
    }
  });
});

describe('cannotWrite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-proxy-files-'));
  afterAll(() => {
    chmodSync(join(dir, 'read-only'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds nothing wrong with a new or existing file in a writable folder, and leaves no trace', () => {
    expect(cannotWrite(join(dir, 'report.json'))).toBeUndefined();
    writeFileSync(join(dir, 'existing.xml'), 'kept');
    expect(cannotWrite(join(dir, 'existing.xml'))).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['existing.xml']);
  });

  it('names a folder that does not exist, a path under a file, and a folder given as the file', () => {
    expect(cannotWrite(join(dir, 'missing', 'report.json'))).toBe(`the folder ${join(dir, 'missing')} does not exist`);
    writeFileSync(join(dir, 'a-file'), '');
    expect(cannotWrite(join(dir, 'a-file', 'report.json'))).toBe(`${join(dir, 'a-file')} is not a folder`);
    mkdirSync(join(dir, 'a-folder'));
    expect(cannotWrite(join(dir, 'a-folder'))).toBe(`${join(dir, 'a-folder')} is a folder`);
  });

  it('finds a folder that takes no new file, also for root, for whom access(W_OK) says yes', () => {
    // Root writes into a mode-555 folder; a file system that refuses file creation (sysfs) stops it too.
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    const folder = process.getuid?.() === 0 ? '/sys' : readOnly;
    expect(cannotWrite(join(folder, 'pets.yaml'))).toMatch(
      /^the folder .* does not take new files \((EACCES|EROFS|EPERM)\)$/,
    );
  });
});

import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  accessLines,
  bindWarning,
  browserAccess,
  helpText,
  isLoopback,
  joinNegativeValues,
  parseOptions,
  toAppOptions,
  UsageError,
} from '../../src/config/parse-options.js';
import { caught } from '../support/caught.js';

function usageError(argv: string[], env: NodeJS.ProcessEnv = {}): UsageError {
  return caught(UsageError, () => parseOptions(argv, env), JSON.stringify(argv));
}

describe('parseOptions', () => {
  it('uses the defaults when neither flags nor variables are given', () => {
    expect(parseOptions([], {})).toEqual({
      host: '127.0.0.1',
      port: 4010,
      keys: ['dev-key'],
      keysFrom: 'the default',
      seed: 1,
      pets: 50,
      scenario: 'default',
      latency: undefined,
      logLevel: 'info',
      logFormat: 'json',
      maxPets: 100_000,
      maxStoreBytes: 64 * 1024 * 1024,
      maxTotalStoreBytes: 256 * 1024 * 1024,
      maxJournalBytes: 64 * 1024 * 1024,
      maxSessions: 100,
      stateFile: undefined,
      document: undefined,
      validators: undefined,
      now: undefined,
      store: 'memory',
      storePrefix: 'petstore',
      storeTimeout: 2000,
      sessionTtl: 86_400,
      corsOrigins: [],
      allowedHosts: [],
      pidFile: undefined,
      fixtureCollections: {},
      help: false,
      version: false,
    });
  });

  it('treats an empty PETSTORE_* variable as unset', () => {
    const env = {
      PETSTORE_PORT: '',
      PETSTORE_PETS: '',
      PETSTORE_LOG_LEVEL: '',
      PETSTORE_MAX_PETS: '',
      PETSTORE_STATE_FILE: '',
    };
    expect(parseOptions([], env)).toEqual(parseOptions([], {}));
  });

  it('refuses an empty PETSTORE_TOKEN, a missing CI secret, rather than fall back to dev-key', () => {
    expect(usageError([], { PETSTORE_TOKEN: '' }).message).toBe(
      'PETSTORE_TOKEN is set but empty: set it to a key (or several, comma-separated), or unset it to use dev-key',
    );
    expect(usageError([], { PETSTORE_TOKEN: '  ' })).toBeInstanceOf(UsageError);
    expect(parseOptions(['--token', 'k'], { PETSTORE_TOKEN: '' }).keys).toEqual(['k']);
  });

  it('ignores environment variables that are not its own', () => {
    expect(parseOptions([], { PORT: '9999', HOST: '0.0.0.0', TOKEN: 'x' })).toMatchObject({
      host: '127.0.0.1',
      port: 4010,
      keys: ['dev-key'],
    });
  });

  it('reads every setting from its PETSTORE_* variable', () => {
    const env = {
      PETSTORE_HOST: '0.0.0.0',
      PETSTORE_PORT: '8080',
      PETSTORE_TOKEN: 'env-key',
      PETSTORE_SEED: '9',
      PETSTORE_PETS: '12',
      PETSTORE_SCENARIO: 'large',
      PETSTORE_LATENCY: '5',
      PETSTORE_LOG_LEVEL: 'debug',
      PETSTORE_MAX_PETS: '500',
      PETSTORE_MAX_STORE_BYTES: '1MiB',
      PETSTORE_MAX_TOTAL_STORE_BYTES: '2MiB',
      PETSTORE_MAX_SESSIONS: '20',
      PETSTORE_STATE_FILE: 'env-state.json',
      PETSTORE_STORE_PREFIX: 'team-a',
      PETSTORE_STORE_TIMEOUT: '500',
      PETSTORE_SESSION_TTL: '3600',
      PETSTORE_LOG_FORMAT: 'pretty',
      PETSTORE_CORS_ORIGIN: 'https://app.example.com, http://b.test:8080',
      PETSTORE_ALLOWED_HOST: 'mock.team.internal,.staging.example',
      PETSTORE_FIXTURE_COLLECTION: 'pets=animals',
      INIT_CWD: '/home/user/app',
    };
    expect(parseOptions([], env)).toEqual({
      host: '0.0.0.0',
      port: 8080,
      keys: ['env-key'],
      keysFrom: 'PETSTORE_TOKEN',
      seed: 9,
      pets: 12,
      scenario: 'large',
      latency: { min: 5, max: 5 },
      logLevel: 'debug',
      logFormat: 'pretty',
      maxPets: 500,
      maxStoreBytes: 1024 * 1024,
      maxTotalStoreBytes: 2 * 1024 * 1024,
      maxJournalBytes: 64 * 1024 * 1024,
      maxSessions: 20,
      stateFile: '/home/user/app/env-state.json',
      document: undefined,
      validators: undefined,
      now: undefined,
      store: 'memory',
      storePrefix: 'team-a',
      storeTimeout: 500,
      sessionTtl: 3600,
      corsOrigins: ['https://app.example.com', 'http://b.test:8080'],
      allowedHosts: ['mock.team.internal', '.staging.example'],
      pidFile: undefined,
      fixtureCollections: { pets: 'animals' },
      help: false,
      version: false,
    });
  });

  it('lets every flag override its variable', () => {
    const env = {
      PETSTORE_HOST: '0.0.0.0',
      PETSTORE_PORT: '8080',
      PETSTORE_TOKEN: 'env-key',
      PETSTORE_SEED: '9',
      PETSTORE_PETS: '12',
      PETSTORE_SCENARIO: 'large',
      PETSTORE_LATENCY: '5',
      PETSTORE_LOG_LEVEL: 'debug',
      PETSTORE_MAX_PETS: '500',
      PETSTORE_MAX_SESSIONS: '20',
      PETSTORE_STATE_FILE: 'env-state.json',
      PETSTORE_STORE_PREFIX: 'team-a',
      PETSTORE_STORE_TIMEOUT: '500',
      PETSTORE_SESSION_TTL: '3600',
      PETSTORE_LOG_FORMAT: 'pretty',
      PETSTORE_CORS_ORIGIN: 'https://app.example.com',
      PETSTORE_ALLOWED_HOST: 'mock.team.internal',
      PETSTORE_FIXTURE_COLLECTION: 'pets=animals',
      INIT_CWD: '/home/user/app',
    };
    const argv = [
      '--fixture-collection',
      'pets=beasts',
      '--cors-origin',
      'http://a.test',
      '--cors-origin',
      '*',
      '--allowed-host',
      'other.internal',
      '--log-format',
      'json',
      '--host=::1',
      '--port',
      '0',
      '--token',
      'flag-key',
      '--seed',
      '3',
      '--pets',
      '0',
      '--scenario',
      './my.yaml',
      '--latency',
      '10-20',
      '--log-level',
      'silent',
      '--max-pets',
      '7',
      '--max-store-bytes',
      '2MiB',
      '--max-total-store-bytes',
      '4096',
      '--max-journal-bytes',
      '8MiB',
      '--max-sessions',
      '3',
      '--state-file',
      './flag-state.json',
      '--store-prefix',
      'team-b',
      '--store-timeout',
      '750',
      '--session-ttl',
      '0',
    ];
    expect(parseOptions(argv, env)).toEqual({
      host: '::1',
      port: 0,
      keys: ['flag-key'],
      keysFrom: '--token',
      seed: 3,
      pets: 0,
      scenario: '/home/user/app/my.yaml',
      latency: { min: 10, max: 20 },
      logLevel: 'silent',
      logFormat: 'json',
      maxPets: 7,
      maxStoreBytes: 2 * 1024 * 1024,
      maxTotalStoreBytes: 4096,
      maxJournalBytes: 8 * 1024 * 1024,
      maxSessions: 3,
      stateFile: '/home/user/app/flag-state.json',
      document: undefined,
      validators: undefined,
      now: undefined,
      store: 'memory',
      storePrefix: 'team-b',
      storeTimeout: 750,
      sessionTtl: 0,
      corsOrigins: ['http://a.test', '*'],
      allowedHosts: ['other.internal'],
      pidFile: undefined,
      fixtureCollections: { pets: 'beasts' },
      help: false,
      version: false,
    });
  });

  it('accepts several keys by repeating --token', () => {
    expect(parseOptions(['--token', 'a', '--token', 'b'], {}).keys).toEqual(['a', 'b']);
  });

  it('accepts several keys comma-separated in PETSTORE_TOKEN, spaces trimmed', () => {
    expect(parseOptions([], { PETSTORE_TOKEN: 'a,b' }).keys).toEqual(['a', 'b']);
    expect(parseOptions([], { PETSTORE_TOKEN: 'a, b ,c' }).keys).toEqual(['a', 'b', 'c']);
  });

  it('uses the --token keys only, not the variable, when both are given', () => {
    expect(parseOptions(['--token', 'flag'], { PETSTORE_TOKEN: 'env1,env2' }).keys).toEqual(['flag']);
  });

  it.each([
    [['--token', ''], {}],
    [['--token', 'has space'], {}],
    [[], { PETSTORE_TOKEN: 'a,,b' }],
  ])('refuses an empty key or a key with spaces: %j %j', (argv, env) => {
    expect(usageError(argv, env).message).toMatch(/^(--token|PETSTORE_TOKEN) must hold non-empty keys without spaces$/);
  });

  it.each([
    ['200', { min: 200, max: 200 }],
    ['0', { min: 0, max: 0 }],
    ['100-300', { min: 100, max: 300 }],
    ['250-250', { min: 250, max: 250 }],
    ['60000', { min: 60000, max: 60000 }],
  ])('reads --latency %s as %j', (text, latency) => {
    expect(parseOptions(['--latency', text], {}).latency).toEqual(latency);
  });

  it.each(['300-100', 'x', '100-', '-100', '1.5', '10-20-30', '60001', '0-60001', ' 100'])(
    'refuses --latency %j naming the flag',
    (text) => {
      expect(usageError([`--latency=${text}`]).message).toBe(
        `--latency must be MS or MIN-MAX (milliseconds, at most 60000), got ${JSON.stringify(text)}`,
      );
    },
  );

  it.each(['70000', '65536', 'abc', '1.5', '80a', ''])('refuses --port %j naming the flag and the range', (text) => {
    expect(usageError([`--port=${text}`]).message).toBe(
      `--port must be a whole number from 0 to 65535, got ${JSON.stringify(text)}`,
    );
  });

  it('refuses a bad port from PETSTORE_PORT, naming the variable the user set', () => {
    expect(usageError([], { PETSTORE_PORT: '70000' }).message).toBe(
      'PETSTORE_PORT must be a whole number from 0 to 65535, got "70000"',
    );
  });

  it.each([
    [['--port', '-1'], '--port must be a whole number from 0 to 65535, got "-1"'],
    [['--pets', '-5'], '--pets must be a whole number from 0 to 10000000, got "-5"'],
    [['--latency', '-20'], '--latency must be MS or MIN-MAX (milliseconds, at most 60000), got "-20"'],
  ])('refuses a negative value %j with the range, not as an ambiguous flag', (argv, message) => {
    expect(usageError(argv).message).toBe(message);
  });

  it('reads a negative value only after a flag that takes a value', () => {
    expect(joinNegativeValues(['--port', '-1', '--pets', '3'])).toEqual(['--port=-1', '--pets', '3']);
    expect(joinNegativeValues(['--help', '-1'])).toEqual(['--help', '-1']);
  });

  it('resolves relative --scenario and --state-file paths against the folder npm was run from', () => {
    const options = parseOptions(['--scenario', 'fx/mine.yaml', '--state-file', '../state.json'], {
      INIT_CWD: '/home/user/app',
    });
    expect(options.scenario).toBe('/home/user/app/fx/mine.yaml');
    expect(options.stateFile).toBe('/home/user/state.json');
    expect(parseOptions(['--scenario', 'large'], { INIT_CWD: '/x' }).scenario).toBe('large');
  });

  it('expands a leading ~ in --state-file that the shell left as it was', () => {
    expect(parseOptions(['--state-file=~/.petstore/state.json'], {}).stateFile).toBe(
      join(homedir(), '.petstore', 'state.json'),
    );
  });

  it('writes logs for people on a terminal and JSON otherwise, unless --log-format says', () => {
    expect(parseOptions([], {}, true).logFormat).toBe('pretty');
    expect(parseOptions([], {}, false).logFormat).toBe('json');
    expect(parseOptions(['--log-format', 'json'], {}, true).logFormat).toBe('json');
    expect(usageError(['--log-format', 'yaml']).message).toBe('--log-format must be json or pretty, got "yaml"');
  });

  it('refuses a seed or a pet count that is not a whole number in range', () => {
    expect(usageError(['--seed', '-1'])).toBeInstanceOf(UsageError);
    expect(usageError(['--seed=2147483648']).message).toBe(
      '--seed must be a whole number from 0 to 2147483647, got "2147483648"',
    );
    expect(usageError(['--pets', 'many']).message).toBe('--pets must be a whole number from 0 to 10000000, got "many"');
  });

  it('refuses a --max-pets that is not a whole number from 1 to 10,000,000', () => {
    expect(usageError(['--max-pets', '0']).message).toBe(
      '--max-pets must be a whole number from 1 to 10000000, got "0"',
    );
    expect(usageError([], { PETSTORE_MAX_PETS: '1e5' }).message).toBe(
      'PETSTORE_MAX_PETS must be a whole number from 1 to 10000000, got "1e5"',
    );
  });

  it('reads --max-store-bytes and --max-total-store-bytes as bytes, or with KiB, MiB or GiB', () => {
    expect(parseOptions(['--max-store-bytes', '8MiB'], {}).maxStoreBytes).toBe(8 * 1024 * 1024);
    expect(parseOptions(['--max-store-bytes', '3kib'], {}).maxStoreBytes).toBe(3 * 1024);
    expect(parseOptions([], { PETSTORE_MAX_TOTAL_STORE_BYTES: '1GiB' }).maxTotalStoreBytes).toBe(1024 ** 3);
    expect(usageError(['--max-store-bytes', '12']).message).toBe(
      '--max-store-bytes must be a size from 1KiB to 64GiB (bytes, or with KiB, MiB or GiB: 64MiB), got "12"',
    );
    expect(usageError([], { PETSTORE_MAX_TOTAL_STORE_BYTES: '1TB' }).message).toMatch(
      /^PETSTORE_MAX_TOTAL_STORE_BYTES must be a size from 1KiB to 64GiB/,
    );
  });

  it('refuses an unknown log level, listing the known ones', () => {
    expect(usageError(['--log-level', 'verbose']).message).toBe(
      '--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
    expect(usageError([], { PETSTORE_LOG_LEVEL: 'INFO' }).message).toMatch(/^PETSTORE_LOG_LEVEL must be one of /);
  });

  it('refuses an empty scenario', () => {
    expect(usageError(['--scenario', '']).message).toBe('--scenario must name a scenario or a file');
  });

  it('refuses an unknown flag, naming it', () => {
    const error = usageError(['--nope']);
    expect(error.message).toContain('--nope');
  });

  it('refuses a positional argument and a flag without its value', () => {
    expect(usageError(['default'])).toBeInstanceOf(UsageError);
    expect(usageError(['--port']).message).toContain('--port');
  });

  it('reads --help, -h and --version', () => {
    expect(parseOptions(['--help'], {}).help).toBe(true);
    expect(parseOptions(['-h'], {}).help).toBe(true);
    expect(parseOptions(['--version'], {})).toMatchObject({ version: true, help: false });
  });
});

describe('the store', () => {
  it('reads a Redis URL from --store or PETSTORE_STORE, with its database and TLS', () => {
    expect(parseOptions(['--store', 'redis://:pw@cache.internal:6380/2'], {}).store).toBe(
      'redis://:pw@cache.internal:6380/2',
    );
    expect(parseOptions([], { PETSTORE_STORE: 'rediss://user:pw@cache.internal' }).store).toBe(
      'rediss://user:pw@cache.internal',
    );
    expect(parseOptions(['--store', 'memory'], { PETSTORE_STORE: 'redis://a:1' }).store).toBe('memory');
  });

  it.each([
    [['--store', 'redis://:hunter2@cache.internal:6379/a'], 'the path is a database number'],
    [['--store', 'redis://:hunter2@/0'], 'not a URL'],
    [['--store', 'redis://:hunter2@cache.internal?db=1'], 'no query'],
    [['--store', 'http://:hunter2@cache.internal'], 'a http: URL'],
    [['--store', 'hunter2@cache.internal'], 'not shown'],
    [['--store', 'mem'], '"mem"'],
  ])('refuses the store %j, saying why, and never shows its password', (argv, why) => {
    const error = usageError(argv, {});
    expect(error.message).toContain('--store must be memory or redis://');
    expect(error.message).toContain(why);
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses a state file with a Redis store, naming both, without the password', () => {
    const message = usageError(['--state-file', 's.json'], { PETSTORE_STORE: 'redis://:hunter2@cache:6379' }).message;
    expect(message).toContain('--state-file keeps one process');
    expect(message).toContain('PETSTORE_STORE redis://cache:6379');
    expect(message).not.toContain('hunter2');
  });

  it('refuses a prefix that is not a key segment, and a timeout out of range', () => {
    expect(usageError(['--store-prefix', 'a b'], {}).message).toContain('--store-prefix must be 1-64 letters');
    expect(usageError([], { PETSTORE_STORE_TIMEOUT: '50' }).message).toContain(
      'PETSTORE_STORE_TIMEOUT must be a whole number from 100 to 60000',
    );
  });

  it('passes the store, its prefix and its deadline on to the mock', () => {
    expect(
      toAppOptions(
        parseOptions(['--store', 'redis://127.0.0.1:6379', '--store-prefix', 'qa', '--store-timeout', '300'], {}),
      ),
    ).toMatchObject({ store: 'redis://127.0.0.1:6379', storePrefix: 'qa', storeTimeout: 300 });
  });
});

describe('toAppOptions', () => {
  it('passes the keys, seed, pets, scenario, latency and store size on to createApp', () => {
    expect(
      toAppOptions(parseOptions(['--token', 'k', '--latency', '1-2', '--seed', '4', '--max-pets', '9'], {})),
    ).toEqual({
      cors: { origins: 'loopback', allowed: [] },
      hosts: { allowed: [], anyAddress: false },
      keys: ['k'],
      seed: 4,
      pets: 50,
      scenario: 'default',
      latency: { min: 1, max: 2 },
      maxPets: 9,
      maxStoreBytes: 64 * 1024 * 1024,
      maxTotalStoreBytes: 256 * 1024 * 1024,
      maxJournalBytes: 64 * 1024 * 1024,
      maxSessions: 100,
      store: 'memory',
      storePrefix: 'petstore',
      storeTimeout: 2000,
      sessionTtl: 86_400,
    });
  });

  it('leaves latency out when none was asked for', () => {
    expect(toAppOptions(parseOptions([], {}))).not.toHaveProperty('latency');
  });
});

describe('helpText', () => {
  const text = helpText();

  it.each([
    ['--host', 'PETSTORE_HOST'],
    ['--port', 'PETSTORE_PORT'],
    ['--token', 'PETSTORE_TOKEN'],
    ['--seed', 'PETSTORE_SEED'],
    ['--pets', 'PETSTORE_PETS'],
    ['--scenario', 'PETSTORE_SCENARIO'],
    ['--latency', 'PETSTORE_LATENCY'],
    ['--log-level', 'PETSTORE_LOG_LEVEL'],
    ['--max-pets', 'PETSTORE_MAX_PETS'],
    ['--max-store-bytes', 'PETSTORE_MAX_STORE_BYTES'],
    ['--max-total-store-bytes', 'PETSTORE_MAX_TOTAL_STORE_BYTES'],
    ['--max-journal-bytes', 'PETSTORE_MAX_JOURNAL_BYTES'],
    ['--max-sessions', 'PETSTORE_MAX_SESSIONS'],
    ['--state-file', 'PETSTORE_STATE_FILE'],
    ['--cors-origin', 'PETSTORE_CORS_ORIGIN'],
    ['--allowed-host', 'PETSTORE_ALLOWED_HOST'],
    ['--pid-file', 'PETSTORE_PID_FILE'],
    ['--store', 'PETSTORE_STORE'],
    ['--store-prefix', 'PETSTORE_STORE_PREFIX'],
    ['--store-timeout', 'PETSTORE_STORE_TIMEOUT'],
    ['--session-ttl', 'PETSTORE_SESSION_TTL'],
  ])('lists %s with its variable %s', (flag, env) => {
    expect(text).toMatch(new RegExp(`^  ${flag} +\\S`, 'm'));
    expect(text).toContain(`env ${env}`);
  });

  it('starts every description in one column, two spaces after the longest flag name', () => {
    const rows = [...text.matchAll(/^ {2}(--[a-z-]+)( +)\S/gm)];
    const longest = Math.max(...rows.map((row) => (row[1] as string).length));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(`${row[1]}${row[2]}`, row[1]).toHaveLength(longest + 2);
    // The variables line up under the descriptions.
    for (const line of text.split('\n').filter((each) => each.trim().startsWith('env '))) {
      expect(line.indexOf('env '), line).toBe(2 + longest + 2);
    }
  });

  it('names the proxy sub-command and where its flags are', () => {
    expect(text).toContain('petstore-mock proxy --upstream URL [flags]');
    expect(text).toContain('petstore-mock proxy --help');
  });

  it('lists --help and --version', () => {
    expect(text).toMatch(/^ {2}--help +\S/m);
    expect(text).toMatch(/^ {2}--version +\S/m);
  });

  it('shows the defaults', () => {
    expect(text).toContain('(default 127.0.0.1)');
    expect(text).toContain('(default 4010)');
    expect(text).toContain('(default dev-key)');
    expect(text).toContain('(default info)');
    expect(text).toContain('(default 100000)');
  });

  it('lists a flag for every option the parser accepts, and no other', () => {
    const listed = [...text.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual([
      '--allowed-host',
      '--cors-origin',
      '--document',
      '--fixture-collection',
      '--help',
      '--host',
      '--latency',
      '--log-format',
      '--log-level',
      '--max-journal-bytes',
      '--max-pets',
      '--max-sessions',
      '--max-store-bytes',
      '--max-total-store-bytes',
      '--now',
      '--pets',
      '--pid-file',
      '--port',
      '--scenario',
      '--seed',
      '--session-ttl',
      '--state-file',
      '--store',
      '--store-prefix',
      '--store-timeout',
      '--token',
      '--validators',
      '--version',
    ]);
    for (const flag of listed) {
      if (flag === '--help' || flag === '--version') continue;
      expect(() => parseOptions([`${flag}=x`], {})).not.toThrow(/Unknown option/);
    }
  });
});

describe('bindWarning', () => {
  const warning =
    "warning: listening on 0.0.0.0, reachable from other machines, with only the default key 'dev-key'. Set --token.";

  it('warns when the mock is reachable from other machines and the only key is dev-key', () => {
    expect(bindWarning({ host: '0.0.0.0', keys: ['dev-key'] })).toBe(warning);
    expect(bindWarning({ host: '::', keys: ['dev-key'] })).toContain('listening on ::,');
    expect(bindWarning({ host: '192.168.1.20', keys: ['dev-key'] })).toContain('listening on 192.168.1.20,');
    expect(bindWarning({ host: 'my-laptop.local', keys: ['dev-key'] })).toContain('with only the default key');
  });

  it('stays quiet on loopback, whatever the keys', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(bindWarning({ host, keys: ['dev-key'] })).toBeUndefined();
    }
  });

  it('stays quiet beyond loopback when a key of the user’s own is set, even alongside dev-key', () => {
    expect(bindWarning({ host: '0.0.0.0', keys: ['s3cret'] })).toBeUndefined();
    expect(bindWarning({ host: '0.0.0.0', keys: ['dev-key', 's3cret'] })).toBeUndefined();
  });

  it('is the decision the CLI makes for its default options and for PETSTORE_HOST', () => {
    expect(bindWarning(parseOptions([], {}))).toBeUndefined();
    expect(bindWarning(parseOptions([], { PETSTORE_HOST: '0.0.0.0' }))).toBe(warning);
  });
});

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.255.255.254', 'localhost', '::1', '::ffff:127.0.0.1', '[::1]', 'app.localhost'])(
    'counts %s as loopback',
    (host) => {
      expect(isLoopback(host)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '127.0.0.1.evil.example', 'localhost.example', '::2'])(
    'does not count %s as loopback',
    (host) => {
      expect(isLoopback(host)).toBe(false);
    },
  );
});

describe('--cors-origin and --allowed-host', () => {
  it('read repeated flags, or a comma-separated variable, writing origins as browsers send them', () => {
    expect(parseOptions(['--cors-origin', 'https://App.Example.com/', '--cors-origin', '*'], {}).corsOrigins).toEqual([
      'https://app.example.com',
      '*',
    ]);
    expect(parseOptions([], { PETSTORE_CORS_ORIGIN: ' https://a.test:8443 ,,' }).corsOrigins).toEqual([
      'https://a.test:8443',
    ]);
    expect(parseOptions(['--allowed-host', 'a.test'], { PETSTORE_ALLOWED_HOST: 'b.test' }).allowedHosts).toEqual([
      'a.test',
    ]);
  });

  it.each([['all'], ['*']])('turn the Host check off with --allowed-host %s', (all) => {
    expect(parseOptions(['--allowed-host', 'a.test', '--allowed-host', all], {}).allowedHosts).toBe('all');
    expect(parseOptions([], { PETSTORE_ALLOWED_HOST: all }).allowedHosts).toBe('all');
  });

  it.each([
    [['--cors-origin', 'null'], '--cors-origin must be an origin such as https://app.example.com'],
    [['--cors-origin', 'app.example.com'], 'got "app.example.com"'],
    [['--cors-origin', 'https://app.example.com/app'], '(a scheme, a host and an optional port, no path)'],
    [['--allowed-host', 'mock.team.internal:4010'], '--allowed-host must be a host name or address without a port'],
    [['--allowed-host', 'http://mock.team.internal'], 'got "http://mock.team.internal"'],
  ])('refuse %j, naming the flag', (argv, message) => {
    expect(usageError(argv).message).toContain(message);
  });

  it('name the variable when the bad value came from it', () => {
    expect(usageError([], { PETSTORE_CORS_ORIGIN: 'null' }).message).toMatch(/^PETSTORE_CORS_ORIGIN must be/);
    expect(usageError([], { PETSTORE_ALLOWED_HOST: 'a:1' }).message).toMatch(/^PETSTORE_ALLOWED_HOST must be/);
  });
});

describe('browserAccess', () => {
  const access = (argv: string[]) => browserAccess(parseOptions(argv, {}));

  it('answers loopback origins and hosts only by default', () => {
    expect(access([])).toEqual({
      cors: { origins: 'loopback', allowed: [] },
      hosts: { allowed: [], anyAddress: false },
    });
  });

  it('answers any IP address as Host, and no name, when bound to every address', () => {
    expect(access(['--host', '0.0.0.0']).hosts).toEqual({ allowed: [], anyAddress: true });
    expect(access(['--host', '::']).hosts).toEqual({ allowed: [], anyAddress: true });
  });

  it('answers the address or name it is bound to, and the hosts allowed', () => {
    expect(access(['--host', '192.168.1.20', '--allowed-host', 'mock.team.internal']).hosts).toEqual({
      allowed: ['192.168.1.20', 'mock.team.internal'],
      anyAddress: false,
    });
    expect(access(['--host', 'my-laptop.local']).hosts.allowed).toEqual(['my-laptop.local']);
  });

  it('passes the origins allowed, and turns the Host check off for --allowed-host all', () => {
    expect(access(['--cors-origin', 'https://app.team.internal', '--allowed-host', 'all'])).toEqual({
      cors: { origins: 'loopback', allowed: ['https://app.team.internal'] },
      hosts: { any: true },
    });
  });
});

describe('accessLines', () => {
  const lines = (argv: string[]) => accessLines(parseOptions(argv, {}));

  it('says nothing on a loopback bind with no origin or host allowed', () => {
    expect(lines([])).toEqual([]);
  });

  it('says which hosts are answered on a bind beyond loopback, and how to answer a name too', () => {
    expect(lines(['--host', '0.0.0.0'])).toEqual([
      '  Hosts      localhost, 127.0.0.1, [::1], any IP address; add a name with --allowed-host NAME',
    ]);
    expect(lines(['--host', '10.0.0.5', '--allowed-host', 'mock.team.internal'])[0]).toContain(
      '[::1], 10.0.0.5, mock.team.internal;',
    );
  });

  it('says when the Host check is off, and which origins are allowed', () => {
    expect(lines(['--allowed-host', 'all', '--cors-origin', 'https://app.team.internal'])).toEqual([
      '  Hosts      any (--allowed-host all: no protection against DNS rebinding)',
      '  Origins    loopback pages, its own, and https://app.team.internal',
    ]);
  });
});

describe('--fixture-collection', () => {
  it('reads repeated FROM=TO flags, or a comma-separated variable, as fixture keys mapped onto collections', () => {
    expect(
      parseOptions(['--fixture-collection', 'pets=animals', '--fixture-collection', 'kinds=categories'], {})
        .fixtureCollections,
    ).toEqual({ pets: 'animals', kinds: 'categories' });
    expect(
      parseOptions([], { PETSTORE_FIXTURE_COLLECTION: 'pets=animals, kinds=categories' }).fixtureCollections,
    ).toEqual({ pets: 'animals', kinds: 'categories' });
    expect(parseOptions([], {}).fixtureCollections).toEqual({});
  });

  it('keeps a key named __proto__ as a key like any other', () => {
    const mapped = parseOptions(['--fixture-collection', '__proto__=animals'], {}).fixtureCollections;
    expect(Object.keys(mapped)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(mapped)).toBe(Object.prototype);
  });

  it('passes the mapping on to the mock, and nothing without one', () => {
    expect(toAppOptions(parseOptions(['--fixture-collection', 'pets=animals'], {}))).toMatchObject({
      fixtureCollections: { pets: 'animals' },
    });
    expect(toAppOptions(parseOptions([], {}))).not.toHaveProperty('fixtureCollections');
  });

  it.each([
    [
      ['--fixture-collection', 'pets'],
      {},
      '--fixture-collection must be FROM=TO (a fixture key and a collection), got "pets"',
    ],
    [['--fixture-collection', 'pets=a=b'], {}, '--fixture-collection must be FROM=TO'],
    [[], { PETSTORE_FIXTURE_COLLECTION: '=animals' }, 'PETSTORE_FIXTURE_COLLECTION must be FROM=TO'],
    [
      ['--fixture-collection', 'pets=animals', '--fixture-collection', 'pets=beasts'],
      {},
      "--fixture-collection maps 'pets' twice",
    ],
  ])('refuses %j %j, saying how to write it', (argv, env, message) => {
    expect(usageError(argv, env).message).toContain(message);
  });
});

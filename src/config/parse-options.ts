import { isSharedStore, type NodeMockOptions, type StoreOptions } from '../node/create-node-mock.js';
import { redactedUrl } from '../redis/redacted-url.js';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { canonicalHostName, createHostCheck, isLoopbackName, type HostOptions } from '../core/pipeline/check-host.js';
import { canonicalOrigin, type CorsOptions } from '../core/pipeline/cors-policy.js';
import { parseMoment } from '../core/state/moment-of.js';
import { isScenarioPath } from '../node/read-fixtures.js';
import { parseFlags, UsageError } from './usage-error.js';

export { UsageError };

export interface CliOptions {
  host: string;
  port: number;
  keys: string[];
  seed: number;
  pets: number;
  /** Where the keys came from, to name it in the banner. */
  keysFrom: '--token' | 'PETSTORE_TOKEN' | 'the default';
  scenario: string;
  /** Fixture keys read as another collection of the document (`--fixture-collection pets=animals`). */
  fixtureCollections: Record<string, string>;
  /** The OpenAPI document served instead of the kit's own (a file path), if any. */
  document: string | undefined;
  /** A module of the document's validators precompiled by `petstore-kit precompile` (a file path), if any. */
  validators: string | undefined;
  /** The moment every session's clock starts at (ms since the epoch), if not the machine's. */
  now: number | undefined;
  latency: { min: number; max: number } | undefined;
  logLevel: string;
  /** `pretty` for people (the default on a terminal), `json` for machines (the default otherwise). */
  logFormat: 'json' | 'pretty';
  maxPets: number;
  /** Bytes of pets (as JSON) one session's store holds at most. */
  maxStoreBytes: number;
  /** Bytes of pets every session's store holds together at most. */
  maxTotalStoreBytes: number;
  /** Bytes every session's journal holds together at most. */
  maxJournalBytes: number;
  maxSessions: number;
  /** Where the store is kept across restarts; none by default. */
  stateFile: string | undefined;
  /** Where the state lives: `memory` (the process's), or a Redis or Valkey URL its replicas share. */
  store: string;
  /** What every key of the kit starts with on that server. */
  storePrefix: string;
  /** How long a call to that server may take before a request answers 503, in ms. */
  storeTimeout: number;
  /** Seconds a named session on a shared store may go unused before it is dropped; 0 for never. */
  sessionTtl: number;
  /** Origins allowed besides loopback ones and the mock's own (`--cors-origin`), canonical; `*` for any. */
  corsOrigins: string[];
  /** Host names answered besides loopback ones and the bound address (`--allowed-host`); `all` for any. */
  allowedHosts: string[] | 'all';
  /** Where the process id is written once the mock listens; none by default. */
  pidFile: string | undefined;
  help: boolean;
  version: boolean;
}

/** Every flag, its environment variable and its help line: the one table both the parser and `--help` read. */
export const flags = {
  host: { env: 'PETSTORE_HOST', default: '127.0.0.1', help: 'address to bind' },
  port: { env: 'PETSTORE_PORT', default: '4010', help: 'port to listen on (0 picks a free one)' },
  token: {
    env: 'PETSTORE_TOKEN',
    default: 'dev-key',
    help: 'accepted bearer key; repeat the flag (or comma-separate the variable) for several',
  },
  seed: { env: 'PETSTORE_SEED', default: '1', help: 'Faker seed of generated items' },
  pets: {
    env: 'PETSTORE_PETS',
    default: '50',
    help: "items of each collection (pets, in the kit's document) in a generated scenario, such as the default one",
  },
  scenario: {
    env: 'PETSTORE_SCENARIO',
    default: 'default',
    help: 'scenario name from fixtures/, or a fixture file path',
  },
  document: {
    env: 'PETSTORE_DOCUMENT',
    default: '',
    help: "an OpenAPI 3.0 document (YAML or JSON) to serve instead of the kit's own",
  },
  validators: {
    env: 'PETSTORE_VALIDATORS',
    default: '',
    help: "the document's validators as a module written by petstore-kit precompile (--out FILE): the mock starts without compiling them, and refuses them once the document changed",
  },
  now: {
    env: 'PETSTORE_NOW',
    default: '',
    help: "the date the mock's clock starts at, running on from it (2030-12-06, or a date-time): past an operation's x-sunset it answers 410",
  },
  latency: { env: 'PETSTORE_LATENCY', default: '', help: 'added latency in ms: MS or MIN-MAX' },
  'log-level': {
    env: 'PETSTORE_LOG_LEVEL',
    default: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
  },
  'log-format': {
    env: 'PETSTORE_LOG_FORMAT',
    default: '',
    help: 'json or pretty (default: pretty on a terminal, json otherwise)',
  },
  'max-pets': {
    env: 'PETSTORE_MAX_PETS',
    default: '100000',
    help: "most items of each collection (pets, in the kit's document) a session's store holds; a create beyond it answers 507 store_full",
  },
  'fixture-collection': {
    env: 'PETSTORE_FIXTURE_COLLECTION',
    default: '',
    help: "FROM=TO: read the fixtures' FROM items as the document's collection TO (pets=animals serves the kit's scenarios with a document that renamed /pets); repeat the flag for several",
  },
  'max-store-bytes': {
    env: 'PETSTORE_MAX_STORE_BYTES',
    default: '64MiB',
    help: "most bytes of items (as JSON) one session's store holds; a create beyond it answers 507 store_full",
  },
  'max-total-store-bytes': {
    env: 'PETSTORE_MAX_TOTAL_STORE_BYTES',
    default: '256MiB',
    help: 'most bytes of items every session holds together (a session counts from its first write)',
  },
  'max-journal-bytes': {
    env: 'PETSTORE_MAX_JOURNAL_BYTES',
    default: '64MiB',
    help: "most bytes every session's journal holds together; the mock's oldest entries make room",
  },
  'max-sessions': {
    env: 'PETSTORE_MAX_SESSIONS',
    default: '100',
    help: 'most named sessions (Petstore-Session header) kept; the least recently used goes beyond',
  },
  'state-file': {
    env: 'PETSTORE_STATE_FILE',
    default: '',
    help: 'JSON file that keeps the store across restarts (none by default)',
  },
  store: {
    env: 'PETSTORE_STORE',
    default: 'memory',
    help: 'where the state lives: memory (this process), or redis://[:password@]host[:port][/db] (rediss:// for TLS), a Redis or Valkey server replicas share',
  },
  'store-prefix': {
    env: 'PETSTORE_STORE_PREFIX',
    default: 'petstore',
    help: "what every key starts with on the store's server, so that two kits share one",
  },
  'store-timeout': {
    env: 'PETSTORE_STORE_TIMEOUT',
    default: '2000',
    help: "ms a call to the store's server may take before the request answers 503 store_unavailable",
  },
  'session-ttl': {
    env: 'PETSTORE_SESSION_TTL',
    default: '86400',
    help: 'seconds a named session on a shared store (--store redis://…) may go unused before it is dropped with its items, faults and journal; 0 for never (the memory store keeps its --max-sessions registry)',
  },
  'cors-origin': {
    env: 'PETSTORE_CORS_ORIGIN',
    default: '',
    help: 'a page origin allowed besides loopback ones; repeatable; * for any (no credentials)',
  },
  'allowed-host': {
    env: 'PETSTORE_ALLOWED_HOST',
    default: '',
    help: 'a Host name answered besides loopback ones and --host; repeatable; all for any',
  },
  'pid-file': {
    env: 'PETSTORE_PID_FILE',
    default: '',
    help: 'file to write the process id to once listening, removed on exit (none by default)',
  },
} as const;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A value and where it came from: `--port` or `PETSTORE_PORT`, so that a message names what the user typed. */
interface Given {
  text: string;
  from: string;
}

function integer(given: Given, min: number, max: number): number {
  const { text, from } = given;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${from} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

const byteUnits: Record<string, number> = { '': 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A size in bytes: a whole number, or one with KiB, MiB or GiB (`64MiB`), from 1 KiB to 64 GiB. */
function bytes({ text, from }: Given): number {
  const match = /^(\d+)\s*(KiB|MiB|GiB)?$/i.exec(text);
  const value = match ? Number(match[1]) * (byteUnits[(match[2] ?? '').toLowerCase()] ?? Number.NaN) : Number.NaN;
  if (!(value >= 1024 && value <= 64 * 1024 ** 3)) {
    throw new UsageError(
      `${from} must be a size from 1KiB to 64GiB (bytes, or with KiB, MiB or GiB: 64MiB), got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

function parseLatency({ text, from }: Given): { min: number; max: number } | undefined {
  if (text === '') return undefined;
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > max || max > 60_000) {
    throw new UsageError(`${from} must be MS or MIN-MAX (milliseconds, at most 60000), got ${JSON.stringify(text)}`);
  }
  return { min, max };
}

/** The flags that take a value: `--port -1` is a port of -1 (then refused as one), not an unknown flag `-1`. */
const valueFlags = new Set(Object.keys(flags).map((name) => `--${name}`));

/** `--port -1` as `--port=-1`, so that the parser reads a negative number as the flag's value. */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    const next = argv[index + 1];
    if (valueFlags.has(arg) && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index++;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * The accepted keys, from `--token` (repeated), else `PETSTORE_TOKEN`
 * (comma-separated), else `dev-key`; the mock's and the proxy's. An empty
 * `PETSTORE_TOKEN` is refused: a missing secret, not a wish for `dev-key`.
 */
export function parseKeys(
  flag: string | string[] | boolean | undefined,
  env: NodeJS.ProcessEnv,
): { keys: string[]; keysFrom: CliOptions['keysFrom'] } {
  // An empty PETSTORE_TOKEN is a missing secret (a CI variable that was not set), not a wish for dev-key.
  if (!Array.isArray(flag) && env.PETSTORE_TOKEN !== undefined && env.PETSTORE_TOKEN.trim() === '') {
    throw new UsageError(
      'PETSTORE_TOKEN is set but empty: set it to a key (or several, comma-separated), or unset it to use dev-key',
    );
  }
  const keysFrom = Array.isArray(flag) ? '--token' : env.PETSTORE_TOKEN ? 'PETSTORE_TOKEN' : 'the default';
  const keys = Array.isArray(flag)
    ? flag
    : env.PETSTORE_TOKEN
      ? env.PETSTORE_TOKEN.split(',').map((key) => key.trim())
      : [flags.token.default];
  for (const key of keys) {
    if (key === '' || /\s/.test(key)) throw new UsageError(`${keysFrom} must hold non-empty keys without spaces`);
  }
  return { keys, keysFrom };
}

/**
 * `--fixture-collection FROM=TO` (repeated), else `PETSTORE_FIXTURE_COLLECTION`
 * (comma-separated): fixture keys read as another collection of the document.
 */
function parseFixtureCollections(
  flag: string | string[] | boolean | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const { values, from } = listOf('fixture-collection', flag, env);
  const mapped: Record<string, string> = {};
  for (const value of values) {
    const match = /^([^=\s]+)=([^=\s]+)$/.exec(value);
    if (!match)
      throw new UsageError(`${from} must be FROM=TO (a fixture key and a collection), got ${JSON.stringify(value)}`);
    const [, key, collection] = match as unknown as [string, string, string];
    if (Object.hasOwn(mapped, key)) throw new UsageError(`${from} maps '${key}' twice`);
    Object.defineProperty(mapped, key, { value: collection, enumerable: true, writable: true, configurable: true });
  }
  return mapped;
}

/** A repeatable flag's values, else its variable's (comma-separated), with where they came from. */
function listOf(
  name: 'cors-origin' | 'allowed-host' | 'fixture-collection',
  flag: string | string[] | boolean | undefined,
  env: NodeJS.ProcessEnv,
): { values: string[]; from: string } {
  if (Array.isArray(flag)) return { values: flag.map((value) => value.trim()), from: `--${name}` };
  const fromEnv = env[flags[name].env] ?? '';
  const values = fromEnv
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return { values, from: flags[name].env };
}

/**
 * `--cors-origin` and `--allowed-host` (or their variables), checked: each
 * origin must be one (`null` cannot be allowed), each host a name or address
 * without a port; `*` for any origin, `all` (or `*`) for any host.
 */
export function parseBrowserAccess(
  values: Record<string, string | string[] | boolean | undefined>,
  env: NodeJS.ProcessEnv,
): Pick<CliOptions, 'corsOrigins' | 'allowedHosts'> {
  const origins = listOf('cors-origin', values['cors-origin'], env);
  const corsOrigins = origins.values.map((text) => {
    const origin = text === '*' ? '*' : canonicalOrigin(text);
    if (origin === undefined) {
      throw new UsageError(
        `${origins.from} must be an origin such as https://app.example.com (a scheme, a host and an optional port, no path), or *; got ${JSON.stringify(text)}`,
      );
    }
    return origin;
  });
  const hosts = listOf('allowed-host', values['allowed-host'], env);
  if (hosts.values.some((text) => text === 'all' || text === '*')) return { corsOrigins, allowedHosts: 'all' };
  for (const text of hosts.values) {
    try {
      createHostCheck({ allowed: [text] });
    } catch {
      throw new UsageError(
        `${hosts.from} must be a host name or address without a port (mock.team.internal, .team.internal, 10.0.0.5), or all; got ${JSON.stringify(text)}`,
      );
    }
  }
  return { corsOrigins, allowedHosts: hosts.values };
}

/**
 * Reads flags first, then `PETSTORE_*` variables, then defaults. Throws
 * `UsageError` naming the bad value and where it came from (the flag or the
 * variable). Relative paths are resolved against the folder the command was
 * typed in: `INIT_CWD` when npm runs it (npm changes into the package first).
 */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv, stdoutIsTerminal = false): CliOptions {
  const values = parseFlags(joinNegativeValues(argv), {
    host: { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string', multiple: true },
    'cors-origin': { type: 'string', multiple: true },
    'allowed-host': { type: 'string', multiple: true },
    seed: { type: 'string' },
    pets: { type: 'string' },
    scenario: { type: 'string' },
    document: { type: 'string' },
    validators: { type: 'string' },
    now: { type: 'string' },
    latency: { type: 'string' },
    'log-level': { type: 'string' },
    'log-format': { type: 'string' },
    'max-pets': { type: 'string' },
    'fixture-collection': { type: 'string', multiple: true },
    'max-store-bytes': { type: 'string' },
    'max-total-store-bytes': { type: 'string' },
    'max-journal-bytes': { type: 'string' },
    'max-sessions': { type: 'string' },
    'state-file': { type: 'string' },
    store: { type: 'string' },
    'store-prefix': { type: 'string' },
    'store-timeout': { type: 'string' },
    'session-ttl': { type: 'string' },
    'pid-file': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  });
  const given = (name: keyof typeof flags): Given => {
    const value = values[name];
    if (typeof value === 'string') return { text: value, from: `--${name}` };
    // An empty variable counts as unset, as shells make it easy to export one by accident (but see PETSTORE_TOKEN).
    const fromEnv = env[flags[name].env];
    return fromEnv === undefined || fromEnv === ''
      ? { text: flags[name].default, from: `--${name}` }
      : { text: fromEnv, from: flags[name].env };
  };
  const pick = (name: keyof typeof flags): string => given(name).text;
  const { keys, keysFrom } = parseKeys(values.token, env);
  const access = parseBrowserAccess(values, env);
  const logLevel = given('log-level');
  if (!logLevels.includes(logLevel.text)) {
    throw new UsageError(
      `${logLevel.from} must be one of ${logLevels.join(', ')}, got ${JSON.stringify(logLevel.text)}`,
    );
  }
  const logFormat = given('log-format');
  if (logFormat.text !== '' && logFormat.text !== 'json' && logFormat.text !== 'pretty') {
    throw new UsageError(`${logFormat.from} must be json or pretty, got ${JSON.stringify(logFormat.text)}`);
  }
  const scenario = pick('scenario');
  if (scenario === '') throw new UsageError('--scenario must name a scenario or a file');
  const stateFile = pick('state-file');
  const document = pick('document');
  const validators = pick('validators');
  const now = given('now');
  const nowMs = now.text === '' ? undefined : parseMoment(now.text);
  if (typeof nowMs === 'string') {
    throw new UsageError(
      `${now.from} must be a date such as 2030-12-06 or a date-time such as 2030-12-06T09:30:00Z, from year 0000 to 9999; got ${JSON.stringify(now.text)}: ${nowMs}`,
    );
  }
  const pidFile = pick('pid-file');
  const store = parseStore(given('store'));
  if (isSharedStore(store) && stateFile !== '') {
    throw new UsageError(
      `${given('state-file').from} keeps one process's memory store in a file; with ${given('store').from} ${redactedUrl(store)} the Redis server keeps the state (its own persistence settings say what survives its restart): give one or the other (docs/persistence.md)`,
    );
  }
  const storePrefix = given('store-prefix');
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(storePrefix.text)) {
    throw new UsageError(
      `${storePrefix.from} must be 1-64 letters, digits, '.', '_', ':' or '-', got ${JSON.stringify(storePrefix.text.slice(0, 80))}`,
    );
  }
  const here = env.INIT_CWD ?? process.cwd();
  // `~/x` quoted, or after `=`, reaches us unexpanded by the shell.
  const path = (text: string): string => resolve(here, text.replace(/^~(?=$|[/\\])/, homedir()));
  return {
    host: pick('host'),
    port: integer(given('port'), 0, 65_535),
    keys,
    keysFrom,
    seed: integer(given('seed'), 0, 2 ** 31 - 1),
    pets: integer(given('pets'), 0, 10_000_000),
    scenario: isScenarioPath(scenario) ? path(scenario) : scenario,
    fixtureCollections: parseFixtureCollections(values['fixture-collection'], env),
    document: document === '' ? undefined : path(document),
    validators: validators === '' ? undefined : path(validators),
    now: nowMs,
    latency: parseLatency(given('latency')),
    logLevel: logLevel.text,
    logFormat: logFormat.text === '' ? (stdoutIsTerminal ? 'pretty' : 'json') : (logFormat.text as 'json' | 'pretty'),
    maxPets: integer(given('max-pets'), 1, 10_000_000),
    maxStoreBytes: bytes(given('max-store-bytes')),
    maxTotalStoreBytes: bytes(given('max-total-store-bytes')),
    maxJournalBytes: bytes(given('max-journal-bytes')),
    maxSessions: integer(given('max-sessions'), 1, 100_000),
    stateFile: stateFile === '' ? undefined : path(stateFile),
    store,
    storePrefix: storePrefix.text,
    storeTimeout: integer(given('store-timeout'), 100, 60_000),
    sessionTtl: integer(given('session-ttl'), 0, 31_536_000),
    ...access,
    pidFile: pidFile === '' ? undefined : path(pidFile),
    help: values.help === true,
    version: values.version === true,
  };
}

/**
 * `--store`: `memory`, or a Redis URL with a host, an optional port and an
 * optional database number. A refusal shows the URL without its password.
 */
function parseStore({ text, from }: Given): string {
  if (text === 'memory') return text;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  // Never the password: a Redis URL without it, another URL by its scheme, a bare word only when it holds no '@'.
  const shown = isSharedStore(text)
    ? redactedUrl(text)
    : scheme !== undefined
      ? `a ${scheme}: URL`
      : text.includes('@')
        ? 'a value not shown (it may hold a password)'
        : JSON.stringify(text.slice(0, 80));
  const refuse = (why: string): never => {
    throw new UsageError(
      `${from} must be memory or redis://[:password@]host[:port][/db] (rediss:// for TLS), got ${shown}: ${why}`,
    );
  };
  if (!isSharedStore(text)) return refuse('not a store the kit knows');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('not a URL');
  }
  if (url.hostname === '') refuse('no host');
  if (!/^(\/(\d{1,5})?)?$/.test(url.pathname)) refuse('the path is a database number (/0 to /15 on a default server)');
  if (url.search !== '' || url.hash !== '') refuse('no query or fragment');
  return text;
}

/** An address to bind as a host name: a bare IPv6 address (`::`, `::1`) in the brackets a Host header carries. */
function boundName(host: string): string | undefined {
  return canonicalHostName(/:.*:/.test(host) && !host.startsWith('[') ? `[${host}]` : host);
}

/** Whether the mock listens on every address of the machine (`0.0.0.0`, `::`). */
function bindsEveryAddress(host: string): boolean {
  const name = boundName(host);
  return name === '0.0.0.0' || name === '[::]';
}

/**
 * The browser-facing policy of the mock (and the proxy) over HTTP: pages on
 * loopback origins, its own and `--cors-origin`; `Host` names that are
 * loopback, the address it listens on (`--host`; any IP address when that is
 * every address) and `--allowed-host`.
 */
export function browserAccess(options: Pick<CliOptions, 'host' | 'corsOrigins' | 'allowedHosts'>): {
  cors: CorsOptions;
  hosts: HostOptions;
} {
  const cors: CorsOptions = { origins: 'loopback', allowed: options.corsOrigins };
  if (options.allowedHosts === 'all') return { cors, hosts: { any: true } };
  const every = bindsEveryAddress(options.host);
  // A loopback address is answered anyway; another one, or a name, is what clients on other machines send.
  const bound = every || isLoopback(options.host) || boundName(options.host) === undefined ? [] : [options.host];
  return { cors, hosts: { allowed: [...bound, ...options.allowedHosts], anyAddress: every } };
}

/**
 * The banner's lines on origins and hosts, when there is something to say:
 * which hosts are answered when the mock is reachable from other machines
 * (and how to widen it), and the origins allowed besides loopback ones.
 */
export function accessLines(options: Pick<CliOptions, 'host' | 'corsOrigins' | 'allowedHosts'>): string[] {
  const lines: string[] = [];
  if (options.allowedHosts === 'all') {
    lines.push('  Hosts      any (--allowed-host all: no protection against DNS rebinding)');
  } else if (!isLoopback(options.host) || options.allowedHosts.length > 0) {
    const bound = bindsEveryAddress(options.host) ? ['any IP address'] : isLoopback(options.host) ? [] : [options.host];
    const names = ['localhost', '127.0.0.1', '[::1]', ...bound, ...options.allowedHosts].join(', ');
    lines.push(`  Hosts      ${names}; add a name with --allowed-host NAME`);
  }
  if (options.corsOrigins.length > 0) {
    lines.push(`  Origins    loopback pages, its own, and ${options.corsOrigins.join(', ')}`);
  }
  return lines;
}

/** The options `createApp` takes, from the CLI's. */
export function toAppOptions(
  options: CliOptions,
): Pick<
  NodeMockOptions & StoreOptions,
  | 'store'
  | 'storePrefix'
  | 'storeTimeout'
  | 'sessionTtl'
  | 'keys'
  | 'seed'
  | 'pets'
  | 'scenario'
  | 'fixtureCollections'
  | 'document'
  | 'now'
  | 'latency'
  | 'maxPets'
  | 'maxStoreBytes'
  | 'maxTotalStoreBytes'
  | 'maxJournalBytes'
  | 'maxSessions'
  | 'cors'
  | 'hosts'
> & { store: string } {
  return {
    ...browserAccess(options),
    keys: options.keys,
    seed: options.seed,
    pets: options.pets,
    scenario: options.scenario,
    ...(Object.keys(options.fixtureCollections).length > 0 ? { fixtureCollections: options.fixtureCollections } : {}),
    maxPets: options.maxPets,
    maxStoreBytes: options.maxStoreBytes,
    maxTotalStoreBytes: options.maxTotalStoreBytes,
    maxJournalBytes: options.maxJournalBytes,
    maxSessions: options.maxSessions,
    store: options.store,
    storePrefix: options.storePrefix,
    storeTimeout: options.storeTimeout,
    sessionTtl: options.sessionTtl,
    ...(options.latency ? { latency: options.latency } : {}),
    ...(options.document === undefined ? {} : { document: options.document }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
}

/**
 * `petstore-mock --help`: the usage, the proxy sub-command, then every flag
 * of the table above with its default and variable, its description in one
 * column after the longest flag name, so that no name runs into its text.
 */
export function helpText(): string {
  const rows: Array<{ flag: string; help: string; env?: string }> = [
    ...Object.entries(flags).map(([name, flag]) => ({
      flag: `--${name}`,
      help: `${flag.help}${flag.default ? ` (default ${flag.default})` : ''}`,
      env: `env ${flag.env}`,
    })),
    { flag: '--help', help: 'this text' },
    { flag: '--version', help: 'the version' },
  ];
  const width = Math.max(...rows.map((row) => row.flag.length)) + 2;
  const lines = rows.flatMap(({ flag, help, env }) => [
    `  ${flag.padEnd(width)}${help}`,
    ...(env ? [`  ${' '.repeat(width)}${env}`] : []),
  ]);
  return [
    'Usage: petstore-mock [flags]',
    '       petstore-mock proxy --upstream URL [flags]',
    '',
    'A stateful mock of the Pet Store animals API, served under /v1.',
    'petstore-mock proxy is the validating proxy in front of a deployment of the API:',
    'run petstore-mock proxy --help for its flags.',
    '',
    ...lines,
    '',
  ].join('\n');
}

/**
 * True for the addresses only this machine can reach: `localhost` (and its
 * subdomains), 127.0.0.0/8 and `::1` (also IPv4-mapped); the same test as the
 * Host check's (check-host.ts).
 */
export function isLoopback(host: string): boolean {
  const name = boundName(host);
  return name !== undefined && isLoopbackName(name);
}

/**
 * The warning printed when the mock is reachable from other machines while
 * the only key is the publicly known `dev-key`; `undefined` when there is none.
 */
export function bindWarning(options: Pick<CliOptions, 'host' | 'keys'>): string | undefined {
  if (isLoopback(options.host)) return undefined;
  if (!(options.keys.length === 1 && options.keys[0] === flags.token.default)) return undefined;
  return `warning: listening on ${options.host}, reachable from other machines, with only the default key '${flags.token.default}'. Set --token.`;
}

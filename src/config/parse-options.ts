import type { NodeMockOptions } from '../node/create-node-mock.js';
import { parseFlags, UsageError } from './usage-error.js';

export { UsageError };

export interface CliOptions {
  host: string;
  port: number;
  keys: string[];
  seed: number;
  pets: number;
  scenario: string;
  latency: { min: number; max: number } | undefined;
  logLevel: string;
  maxPets: number;
  maxSessions: number;
  /** Where the store is kept across restarts; none by default. */
  stateFile: string | undefined;
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
  seed: { env: 'PETSTORE_SEED', default: '1', help: 'Faker seed of generated pets' },
  pets: { env: 'PETSTORE_PETS', default: '50', help: 'number of pets in the default scenario' },
  scenario: {
    env: 'PETSTORE_SCENARIO',
    default: 'default',
    help: 'scenario name from fixtures/, or a fixture file path',
  },
  latency: { env: 'PETSTORE_LATENCY', default: '', help: 'added latency in ms: MS or MIN-MAX' },
  'log-level': {
    env: 'PETSTORE_LOG_LEVEL',
    default: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
  },
  'max-pets': {
    env: 'PETSTORE_MAX_PETS',
    default: '100000',
    help: 'most pets the store holds; a create beyond it answers 507 store_full',
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
} as const;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function parseLatency(text: string): { min: number; max: number } | undefined {
  if (text === '') return undefined;
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || min > max || max > 60_000) {
    throw new UsageError(`--latency must be MS or MIN-MAX (milliseconds, at most 60000), got ${JSON.stringify(text)}`);
  }
  return { min, max };
}

/** Reads flags first, then `PETSTORE_*` variables, then defaults. Throws `UsageError` naming the bad value. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const values = parseFlags(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string', multiple: true },
    seed: { type: 'string' },
    pets: { type: 'string' },
    scenario: { type: 'string' },
    latency: { type: 'string' },
    'log-level': { type: 'string' },
    'max-pets': { type: 'string' },
    'max-sessions': { type: 'string' },
    'state-file': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  });
  const pick = (name: keyof typeof flags): string => {
    const value = values[name];
    if (typeof value === 'string') return value;
    // An empty variable counts as unset, as shells make it easy to export one by accident.
    const fromEnv = env[flags[name].env];
    return fromEnv === undefined || fromEnv === '' ? flags[name].default : fromEnv;
  };
  const tokens = Array.isArray(values.token)
    ? values.token
    : env.PETSTORE_TOKEN
      ? env.PETSTORE_TOKEN.split(',').map((key) => key.trim())
      : [flags.token.default];
  for (const token of tokens) {
    if (token === '' || /\s/.test(token)) throw new UsageError('--token must be a non-empty key without spaces');
  }
  const logLevel = pick('log-level');
  if (!logLevels.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${logLevels.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  const scenario = pick('scenario');
  if (scenario === '') throw new UsageError('--scenario must name a scenario or a file');
  const stateFile = pick('state-file');
  return {
    host: pick('host'),
    port: integer('port', pick('port'), 0, 65_535),
    keys: tokens,
    seed: integer('seed', pick('seed'), 0, 2 ** 31 - 1),
    pets: integer('pets', pick('pets'), 0, 10_000_000),
    scenario,
    latency: parseLatency(pick('latency')),
    logLevel,
    maxPets: integer('max-pets', pick('max-pets'), 1, 10_000_000),
    maxSessions: integer('max-sessions', pick('max-sessions'), 1, 100_000),
    stateFile: stateFile === '' ? undefined : stateFile,
    help: values.help === true,
    version: values.version === true,
  };
}

/** The options `createApp` takes, from the CLI's. */
export function toAppOptions(
  options: CliOptions,
): Pick<NodeMockOptions, 'keys' | 'seed' | 'pets' | 'scenario' | 'latency' | 'maxPets' | 'maxSessions'> {
  return {
    keys: options.keys,
    seed: options.seed,
    pets: options.pets,
    scenario: options.scenario,
    maxPets: options.maxPets,
    maxSessions: options.maxSessions,
    ...(options.latency ? { latency: options.latency } : {}),
  };
}

export function helpText(): string {
  const lines = Object.entries(flags).map(
    ([name, flag]) =>
      `  --${name.padEnd(10)} ${flag.help}${flag.default ? ` (default ${flag.default})` : ''}\n  ${' '.repeat(13)}env ${flag.env}`,
  );
  return `Usage: petstore-mock [flags]\n\nA stateful mock of the Pet Store animals API, served under /v1.\n\n${lines.join('\n')}\n  --help       this text\n  --version    the version\n`;
}

/** True for the addresses only this machine can reach: `localhost`, 127.0.0.0/8 and `::1` (also IPv4-mapped). */
export function isLoopback(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return address === 'localhost' || address === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
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

import type { NodeMockOptions } from '../node/create-node-mock.js';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
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
  latency: { min: number; max: number } | undefined;
  logLevel: string;
  /** `pretty` for people (the default on a terminal), `json` for machines (the default otherwise). */
  logFormat: 'json' | 'pretty';
  maxPets: number;
  maxSessions: number;
  /** Where the store is kept across restarts; none by default. */
  stateFile: string | undefined;
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
  'log-format': {
    env: 'PETSTORE_LOG_FORMAT',
    default: '',
    help: 'json or pretty (default: pretty on a terminal, json otherwise)',
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
    seed: { type: 'string' },
    pets: { type: 'string' },
    scenario: { type: 'string' },
    latency: { type: 'string' },
    'log-level': { type: 'string' },
    'log-format': { type: 'string' },
    'max-pets': { type: 'string' },
    'max-sessions': { type: 'string' },
    'state-file': { type: 'string' },
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
  // An empty PETSTORE_TOKEN is a missing secret (a CI variable that was not set), not a wish for dev-key.
  if (!Array.isArray(values.token) && env.PETSTORE_TOKEN !== undefined && env.PETSTORE_TOKEN.trim() === '') {
    throw new UsageError(
      'PETSTORE_TOKEN is set but empty: set it to a key (or several, comma-separated), or unset it to use dev-key',
    );
  }
  const tokenFrom = Array.isArray(values.token) ? '--token' : env.PETSTORE_TOKEN ? 'PETSTORE_TOKEN' : 'the default';
  const tokens = Array.isArray(values.token)
    ? values.token
    : env.PETSTORE_TOKEN
      ? env.PETSTORE_TOKEN.split(',').map((key) => key.trim())
      : [flags.token.default];
  for (const token of tokens) {
    if (token === '' || /\s/.test(token)) throw new UsageError(`${tokenFrom} must hold non-empty keys without spaces`);
  }
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
  const pidFile = pick('pid-file');
  const here = env.INIT_CWD ?? process.cwd();
  // `~/x` quoted, or after `=`, reaches us unexpanded by the shell.
  const path = (text: string): string => resolve(here, text.replace(/^~(?=$|[/\\])/, homedir()));
  return {
    host: pick('host'),
    port: integer(given('port'), 0, 65_535),
    keys: tokens,
    keysFrom: tokenFrom,
    seed: integer(given('seed'), 0, 2 ** 31 - 1),
    pets: integer(given('pets'), 0, 10_000_000),
    scenario: isScenarioPath(scenario) ? path(scenario) : scenario,
    latency: parseLatency(given('latency')),
    logLevel: logLevel.text,
    logFormat: logFormat.text === '' ? (stdoutIsTerminal ? 'pretty' : 'json') : (logFormat.text as 'json' | 'pretty'),
    maxPets: integer(given('max-pets'), 1, 10_000_000),
    maxSessions: integer(given('max-sessions'), 1, 100_000),
    stateFile: stateFile === '' ? undefined : path(stateFile),
    pidFile: pidFile === '' ? undefined : path(pidFile),
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

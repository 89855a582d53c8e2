import { parseFlags, UsageError } from '../config/usage-error.js';
import { parseMoment } from '../core/state/moment-of.js';
import { defaultBudget, defaultConcurrency, defaultSettleMs } from './contract-settings.js';

export { UsageError };

/** What a contract run is pointed at and how it behaves. */
export interface ContractOptions {
  /** The deployment's base address, including `/v1`, without a trailing slash. */
  baseUrl: string;
  token: string;
  readOnly: boolean;
  junitFile: string | undefined;
  jsonFile: string | undefined;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Extra headers sent with every request (`--header`), names in lower case, in the order given. */
  headers: Record<string, string>;
  /** Warnings fail too. */
  strict: boolean;
  /** How long a created pet may take to be readable, in ms. */
  settleMs: number;
  /** Requests the stateful exploration may send. */
  budget: number;
  /** The most requests sent at once (1: one at a time). */
  concurrency: number;
  /** The least time the exploration spreads its budget over, in ms (0: as fast as it can). */
  durationMs: number;
  /** Seed of the generated bodies and of the exploration (default: a fixed one, so runs repeat). */
  seed: number | undefined;
  /** The OpenAPI document the deployment is checked against (`--document`); undefined: the kit's openapi.yaml. */
  document: string | undefined;
  /** The moment the run takes as now (`--now`, ms since the epoch); undefined: the machine's clock. */
  now: number | undefined;
}

export const defaultTimeoutMs = 5000;

const flagLines: Array<[string, string]> = [
  ['--base-url URL', 'the deployment, including /v1 (or CONTRACT_BASE_URL)'],
  ['--token KEY', 'the API key sent as a bearer token (or CONTRACT_TOKEN)'],
  ['--read-only', 'skip every check that creates data; the exploration only reads'],
  ['--strict', 'warnings fail too (a strict reading of OpenAPI 3.0 and RFC 9110)'],
  ['--junit FILE', 'write a JUnit XML report'],
  ['--json FILE', 'write a JSON report: findings by level, coverage, ids, exploration'],
  ['--timeout MS', `per-request timeout (default ${defaultTimeoutMs})`],
  ['--settle MS', `how long a write may take to show in reads (default ${defaultSettleMs})`],
  ['--budget N', `requests the stateful exploration may send (default ${defaultBudget}; 0: none)`],
  ['--seed N', 'seed of the generated bodies and the exploration (replays a run)'],
  [
    '--concurrency N',
    `most requests sent at once: concurrent creates, racing lists and reads (default ${defaultConcurrency}; 1: none)`,
  ],
  ['--duration S', 'spread the exploration over at least S seconds, re-reading what the run wrote (default 0)'],
  ['--document FILE', "the OpenAPI document to check against (default: the kit's openapi.yaml)"],
  ['--now DATE', "the run's clock, e.g. 2030-12-06: past an operation's x-sunset it is only observed"],
  ["--header 'N: V'", "send this header with every request (repeatable), e.g. 'Petstore-Session: w1'"],
  ['--version', 'print the version and exit'],
];

export function usageText(command: string, full = true): string {
  const shown = full
    ? flagLines
    : flagLines.filter(([flag]) => !/^--(json|strict|settle|budget|seed|now|concurrency|duration)/.test(flag));
  const width = Math.max(...shown.map(([flag]) => flag.length)) + 2;
  return [
    `usage: ${command} --base-url URL --token KEY [flags] | --version | --help`,
    ...shown.map(([flag, meaning]) => `  ${flag.padEnd(width)}${meaning}`),
    ...(full
      ? [
          '',
          'Every finding has a level: fail (the spec or a standard forbids it), warn (a strict',
          'reading forbids it) or observed (the spec leaves it open). Exit codes: 0 nothing fails,',
          '1 a check fails, 2 the deployment cannot be checked (unreachable, not the base URL, key refused).',
        ]
      : []),
  ].join('\n');
}

/** Headers the runners set themselves: a `--header` may not replace them. */
const reservedHeaders: Record<string, string> = {
  authorization: 'pass the key with --token; the checks send their own Authorization headers',
  accept: 'the checks send Accept: application/json',
  'content-type': 'the checks send the Content-Type of each body',
  'content-length': 'it is computed for each body',
  'transfer-encoding': 'it is set by the HTTP client',
  host: 'it comes from the base URL',
  connection: 'it is set by the HTTP client',
};

/** RFC 9110 token characters: a header name. */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Reads the `--header 'Name: value'` flags into lower-case names and values. */
export function parseHeaderFlags(flags: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    const name = colon === -1 ? '' : flag.slice(0, colon).trim();
    if (colon === -1 || !headerName.test(name)) {
      // The flag is not echoed: its value may be a secret.
      throw new UsageError("--header must be 'Name: value': a header name, a colon, then the value");
    }
    const value = flag.slice(colon + 1).trim();
    if ([...value].some((char) => char !== '\t' && (char < ' ' || char === '\u007f'))) {
      throw new UsageError(`--header '${name}': the value must not contain line breaks or control characters`);
    }
    const key = name.toLowerCase();
    const reason = reservedHeaders[key];
    if (reason) throw new UsageError(`--header '${name}' is not allowed: ${reason}`);
    if (key in headers) throw new UsageError(`--header '${name}' is given twice`);
    headers[key] = value;
  }
  return headers;
}

/**
 * Reads the runner's flags, falling back to CONTRACT_BASE_URL and CONTRACT_TOKEN.
 * Returns `'help'` for --help and `'version'` for --version; throws `UsageError`
 * for anything it cannot use.
 */
export function parseContractOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  { allowJson = true }: { allowJson?: boolean } = {},
): ContractOptions | 'help' | 'version' {
  const values = parseFlags(argv, {
    'base-url': { type: 'string' },
    token: { type: 'string' },
    'read-only': { type: 'boolean' },
    junit: { type: 'string' },
    ...(allowJson
      ? {
          json: { type: 'string' },
          strict: { type: 'boolean' },
          settle: { type: 'string' },
          budget: { type: 'string' },
          seed: { type: 'string' },
          now: { type: 'string' },
          concurrency: { type: 'string' },
          duration: { type: 'string' },
        }
      : {}),
    document: { type: 'string' },
    timeout: { type: 'string' },
    header: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  });
  if (values.help === true) return 'help';
  if (values.version === true) return 'version';

  const rawUrl = (values['base-url'] as string | undefined) ?? env.CONTRACT_BASE_URL;
  if (rawUrl === undefined || rawUrl.trim() === '') {
    throw new UsageError('a base URL is required: pass --base-url URL or set CONTRACT_BASE_URL');
  }
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    throw new UsageError(`the base URL '${rawUrl}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the base URL must be http or https, found '${url.protocol}'`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError('the base URL must not carry a query or a fragment');
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('the base URL must not carry credentials; pass the key with --token');
  }

  const token = (values.token as string | undefined) ?? env.CONTRACT_TOKEN;
  if (token === undefined || token === '') {
    throw new UsageError('an API key is required: pass --token KEY or set CONTRACT_TOKEN');
  }
  if (/\s/.test(token)) throw new UsageError('the API key must not contain whitespace');

  let timeoutMs = defaultTimeoutMs;
  const rawTimeout = values.timeout as string | undefined;
  if (rawTimeout !== undefined) {
    timeoutMs = Number(rawTimeout);
    if (!/^\d+$/.test(rawTimeout) || timeoutMs < 1 || timeoutMs > 600_000) {
      throw new UsageError(
        `--timeout must be a whole number of milliseconds between 1 and 600000, found '${rawTimeout}'`,
      );
    }
  }

  const whole = (flag: string, fallback: number, max: number): number => {
    const raw = values[flag] as string | undefined;
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) > max) {
      throw new UsageError(`--${flag} must be a whole number from 0 to ${max}, found '${raw}'`);
    }
    return Number(raw);
  };
  const seed = values.seed === undefined ? undefined : whole('seed', 0, 2 ** 31 - 1);
  const rawNow = values.now as string | undefined;
  let now: number | undefined;
  if (rawNow !== undefined) {
    // Read as the mock's --now and its admin clock read a moment: RFC 3339 strictly, a date alone the start of that
    // day in UTC (as x-sunset dates are read), so that the suite and the mock agree on what a value means.
    const moment = parseMoment(rawNow);
    if (typeof moment === 'string') {
      throw new UsageError(
        `--now must be a date such as 2030-12-06 or a date-time such as 2030-12-06T09:30:00Z, from year 0000 to 9999; got ${JSON.stringify(rawNow)}: ${moment}`,
      );
    }
    now = moment;
  }
  const document = values.document as string | undefined;
  if (document !== undefined && document.trim() === '') throw new UsageError('--document must name a file');
  return {
    document,
    now,
    strict: values.strict === true,
    settleMs: whole('settle', defaultSettleMs, 600_000),
    budget: whole('budget', defaultBudget, 100_000),
    concurrency: Math.max(1, whole('concurrency', defaultConcurrency, 64)),
    durationMs: whole('duration', 0, 86_400) * 1000,
    seed,
    baseUrl: url.href.replace(/\/+$/, ''),
    token,
    readOnly: values['read-only'] === true,
    junitFile: values.junit as string | undefined,
    jsonFile: values.json as string | undefined,
    timeoutMs,
    headers: parseHeaderFlags((values.header as string[] | undefined) ?? []),
  };
}

import { parseFlags, UsageError } from '../config/usage-error.js';

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
}

export const defaultTimeoutMs = 5000;

export function usageText(command: string, withJson = true): string {
  return [
    `usage: ${command} --base-url URL --token KEY [--read-only] [--junit FILE]${withJson ? ' [--json FILE]' : ''} [--timeout MS]`,
    '  --base-url URL   the deployment, including /v1 (or CONTRACT_BASE_URL)',
    '  --token KEY      the API key sent as a bearer token (or CONTRACT_TOKEN)',
    '  --read-only      skip every check that creates data',
    '  --junit FILE     write a JUnit XML report',
    ...(withJson ? ['  --json FILE      write a JSON report, including observed behaviour'] : []),
    `  --timeout MS     per-request timeout (default ${defaultTimeoutMs})`,
  ].join('\n');
}

/**
 * Reads the runner's flags, falling back to CONTRACT_BASE_URL and CONTRACT_TOKEN.
 * Returns `'help'` for --help; throws `UsageError` for anything it cannot use.
 */
export function parseContractOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  { allowJson = true }: { allowJson?: boolean } = {},
): ContractOptions | 'help' {
  const values = parseFlags(argv, {
    'base-url': { type: 'string' },
    token: { type: 'string' },
    'read-only': { type: 'boolean' },
    junit: { type: 'string' },
    ...(allowJson ? { json: { type: 'string' } } : {}),
    timeout: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) return 'help';

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

  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    token,
    readOnly: values['read-only'] === true,
    junitFile: values.junit as string | undefined,
    jsonFile: values.json as string | undefined,
    timeoutMs,
  };
}

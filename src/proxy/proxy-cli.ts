import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pino } from 'pino';
import {
  accessLines,
  bindWarning,
  browserAccess,
  parseBrowserAccess,
  parseKeys,
  type CliOptions,
} from '../config/parse-options.js';
import { parseFlags, UsageError } from '../config/usage-error.js';
import { createServer } from '../node/create-server.js';
import { loadWebPages } from '../node/web-pages.js';
import { whenToldToStop } from '../node/when-told-to-stop.js';
import { outputFileProblem } from '../node/output-file-problem.js';
import { checkUpstream, createProxy, defaultSettleMs, type Proxy } from './create-proxy.js';
import { type FailOn, failOnChoices } from './proxy-report.js';
import { RecordingError } from './item-recording.js';

export interface ProxyCliOptions extends Pick<CliOptions, 'keys' | 'keysFrom' | 'corsOrigins' | 'allowedHosts'> {
  upstream: string;
  host: string;
  port: number;
  logLevel: string;
  enforce: boolean;
  failOn: FailOn;
  strict: boolean;
  settleMs: number;
  timeoutMs: number;
  report: string | undefined;
  junit: string | undefined;
  record: string | undefined;
  /** The document the traffic is judged by, if not the kit's own (a file path). */
  document: string | undefined;
  /** Headers that partition the deployment's data besides Petstore-Session (`--partition-header`). */
  partitionHeaders: string[];
  /** Judge every key's traffic as one store (`--shared-credentials`). */
  sharedCredentials: boolean;
  /** Where the process id is written once the proxy listens. */
  pidFile: string | undefined;
}

interface ProxyFlag {
  type: 'string' | 'boolean';
  /** Repeatable: the values are a list. */
  multiple?: true;
  /** What the value is, in the usage text: `URL`, `FILE`. */
  value?: string;
  /** The variable read when the flag is not given. */
  env?: string;
  help: string;
}

/**
 * Every flag of the proxy, in the order `--help` lists them: the one table
 * the parser and the usage text both read. A new flag is a new row here and
 * a field read in `parseProxyOptions`.
 */
export const proxyFlags = {
  upstream: {
    type: 'string',
    value: 'URL',
    env: 'PETSTORE_UPSTREAM',
    help: 'the deployment to forward to (its base address, ending with /v1)',
  },
  document: {
    type: 'string',
    value: 'FILE',
    env: 'PETSTORE_DOCUMENT',
    help: "an OpenAPI 3.0 document (YAML or JSON) to judge by instead of the kit's own",
  },
  host: { type: 'string', value: 'HOST', help: 'address to bind (default 127.0.0.1)' },
  port: { type: 'string', value: 'PORT', help: 'port to listen on (default 4011; 0 picks a free one)' },
  token: {
    type: 'string',
    multiple: true,
    value: 'KEY',
    env: 'PETSTORE_TOKEN',
    help: "key of the proxy's own admin API and dashboard (default dev-key); repeatable",
  },
  'cors-origin': {
    type: 'string',
    multiple: true,
    value: 'ORIGIN',
    env: 'PETSTORE_CORS_ORIGIN',
    help: 'a page origin allowed besides loopback ones; repeatable; * for any (no credentials)',
  },
  'allowed-host': {
    type: 'string',
    multiple: true,
    value: 'HOST',
    env: 'PETSTORE_ALLOWED_HOST',
    help: 'a Host name answered besides loopback ones and --host; repeatable; all for any',
  },
  enforce: { type: 'boolean', help: 'refuse invalid requests (400) and replace answers that fail a rule (502)' },
  'fail-on': {
    type: 'string',
    value: 'WHO',
    help: 'whose failing findings make it exit 1: deployment (default), client, any, none',
  },
  strict: { type: 'boolean', help: 'warnings fail too (a strict reading of OpenAPI 3.0 and RFC 9110)' },
  'partition-header': {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: "a request header that partitions the deployment's data besides Petstore-Session (a tenant header); repeatable",
  },
  'shared-credentials': {
    type: 'boolean',
    help: "judge every key's traffic as one store (the deployment promises its keys share one; default: one per key)",
  },
  settle: {
    type: 'string',
    value: 'MS',
    help: `how long a created pet may take to be readable (default ${defaultSettleMs})`,
  },
  report: { type: 'string', value: 'FILE', help: 'write the findings and coverage as JSON when the proxy stops' },
  junit: {
    type: 'string',
    value: 'FILE',
    help: 'write JUnit XML (one case per operation and status seen) when it stops',
  },
  record: {
    type: 'string',
    value: 'FILE',
    help: 'collect the pets of valid answers into a fixture file when it stops',
  },
  'pid-file': {
    type: 'string',
    value: 'FILE',
    env: 'PETSTORE_PID_FILE',
    help: 'file to write the process id to once listening, removed on exit (none by default)',
  },
  timeout: {
    type: 'string',
    value: 'MS',
    help: 'how long one whole exchange with the upstream may take (default 30000; then 504)',
  },
  'log-level': {
    type: 'string',
    value: 'LVL',
    help: 'fatal, error, warn, info, debug, trace or silent (default info)',
  },
} as const satisfies Record<string, ProxyFlag>;

/** The files the proxy writes when it stops, by flag. */
const outputFlags = ['report', 'junit', 'record'] as const;

function usageText(): string {
  const flags = Object.entries(proxyFlags as Record<string, ProxyFlag>);
  const lefts = flags.map(([name, flag]) => `--${name}${flag.value ? ` ${flag.value}` : ''}`);
  const width = Math.max(...lefts.map((left) => left.length)) + 2;
  // As the mock's --help: the variable on a line of its own, under the help.
  const rows = flags.map(([, flag], index) => [
    lefts[index],
    `${flag.help}${flag.env ? `\n  ${' '.repeat(width)}env ${flag.env}` : ''}`,
  ]);
  return `Usage: petstore-mock proxy --upstream URL [flags]

Forwards every request under /v1 to URL (the API's base address, ending with /v1),
judges each request and answer against openapi.yaml, and reports what breaks it.

${rows.map(([left, right]) => `  ${(left as string).padEnd(width)}${right}`).join('\n')}

Every finding has a level: fail (the spec or a standard forbids it), warn (a
strict reading forbids it) or observed (the spec leaves it open), and a side:
the deployment's answers or the client's requests. The proxy exits 1 when it
stops after a failing finding of the side --fail-on names (or cannot write a
file), 0 otherwise.
`;
}

export const proxyUsage = usageText();

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** `--partition-header` names, each a valid header name (RFC 9110 §5.1), in lower case. */
function partitionHeaders(given: unknown): string[] {
  const names = Array.isArray(given) ? (given as string[]) : typeof given === 'string' ? [given] : [];
  return names.map((name) => {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/.test(name)) {
      throw new UsageError(`--partition-header must be a header name, got ${JSON.stringify(name.slice(0, 80))}`);
    }
    return name.toLowerCase();
  });
}

export function parseProxyOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ProxyCliOptions | 'help' {
  const values = parseFlags(argv, {
    ...Object.fromEntries(
      Object.entries(proxyFlags as Record<string, ProxyFlag>).map(([name, flag]) => [
        name,
        { type: flag.type, ...(flag.multiple ? { multiple: true } : {}) },
      ]),
    ),
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) return 'help';
  const text = (name: keyof typeof proxyFlags): string | undefined => values[name] as string | undefined;
  const upstream = text('upstream') ?? env.PETSTORE_UPSTREAM;
  if (upstream === undefined || upstream === '') {
    throw new UsageError('an upstream is required: pass --upstream URL (the API base address, ending with /v1)');
  }
  try {
    checkUpstream(upstream);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const whole = (name: string, given: string, min: number, max: number): number => {
    if (!/^\d+$/.test(given) || Number(given) < min || Number(given) > max) {
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(given)}`);
    }
    return Number(given);
  };
  const logLevel = text('log-level') ?? 'info';
  if (!levels.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${levels.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  const failOn = text('fail-on') ?? 'deployment';
  if (!(failOnChoices as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be one of ${failOnChoices.join(', ')}, got ${JSON.stringify(failOn)}`);
  }
  return {
    upstream,
    failOn: failOn as FailOn,
    strict: values.strict === true,
    settleMs: whole('settle', text('settle') ?? String(defaultSettleMs), 0, 600_000),
    host: text('host') ?? '127.0.0.1',
    port: whole('port', text('port') ?? '4011', 0, 65_535),
    ...parseKeys(values.token, env),
    ...parseBrowserAccess(values, env),
    logLevel,
    enforce: values.enforce === true,
    timeoutMs: whole('timeout', text('timeout') ?? '30000', 1, 600_000),
    report: text('report'),
    junit: text('junit'),
    record: text('record'),
    document: text('document') ?? (env.PETSTORE_DOCUMENT || undefined),
    partitionHeaders: partitionHeaders(values['partition-header']),
    sharedCredentials: values['shared-credentials'] === true,
    pidFile: text('pid-file') ?? (env.PETSTORE_PID_FILE || undefined),
  };
}

/**
 * Why the proxy could not write `file` when it stops, or undefined when it
 * can: its folder must exist and take a new file (a file is created and
 * removed there, as `access(W_OK)` says yes to root on a read-only file
 * system), and an existing file must be a file that opens for writing.
 */
export function cannotWrite(file: string): string | undefined {
  const problem = outputFileProblem(file, { makeFolder: false, probePrefix: 'petstore-proxy-check' });
  if (!problem) return undefined;
  switch (problem.kind) {
    case 'folder-missing':
      return `the folder ${problem.folder} does not exist`;
    case 'not-a-folder':
      return `${problem.folder} is not a folder`;
    case 'folder-unreadable':
      return `the folder ${problem.folder} cannot be read (${problem.code})`;
    case 'folder-not-made':
    case 'folder-refuses-files':
      return `the folder ${problem.folder} does not take new files (${problem.code})`;
    case 'is-a-folder':
      return `${file} is a folder`;
    case 'not-writable':
      return `${file} exists and cannot be written (${problem.code})`;
  }
}

/**
 * Writes the report, the JUnit file and the recording, each on its own: one
 * that fails is named, and the others are still written. Returns the lines
 * to print and whether any failed.
 */
function writeOutputs(settings: ProxyCliOptions, proxy: Proxy): { lines: string[]; failed: boolean } {
  const { report, recording } = proxy;
  const lines: string[] = [];
  let failed = false;
  const attempt = (failure: string, write: () => void): void => {
    try {
      write();
    } catch (error) {
      lines.push(
        `${failure}${error instanceof RecordingError ? '' : 'cannot be written: '}${(error as Error).message}`,
      );
      failed = true;
    }
  };
  if (settings.report) {
    const file = resolve(settings.report);
    attempt(`Not written: --report ${file}: `, () =>
      writeFileSync(file, `${JSON.stringify(report.toJson(), null, 2)}\n`),
    );
  }
  if (settings.junit) {
    const file = resolve(settings.junit);
    attempt(`Not written: --junit ${file}: `, () => writeFileSync(file, report.toJunit()));
  }
  if (recording) {
    // A RecordingError names the file and says why itself.
    attempt('Not recorded: ', () => {
      const summary = recording.save();
      lines.push(`Recorded ${summary.recorded} pets in ${summary.file}`);
      for (const skipped of summary.notRecorded) {
        lines.push(`  not recorded (${skipped.count}×): ${skipped.reason}; e.g. ${skipped.example}`);
      }
    });
  }
  return { lines, failed };
}

/** `petstore-mock proxy`: listens like the mock, forwards, and writes its reports when stopped. */
export function runProxy(argv: readonly string[]): void {
  let options: ProxyCliOptions | 'help';
  try {
    options = parseProxyOptions(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`petstore-mock proxy: ${error.message}\nRun petstore-mock proxy --help for the flags.\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(proxyUsage);
    return;
  }
  const settings = options;
  // A file that cannot be written is found now, not when the proxy stops with the traffic's findings in hand.
  for (const flag of outputFlags) {
    const file = settings[flag];
    const problem = file === undefined ? undefined : cannotWrite(resolve(file));
    if (problem) {
      process.stderr.write(`petstore-mock proxy: --${flag} ${resolve(file as string)}: ${problem}\n`);
      process.exit(2);
    }
  }
  const defaultKeyOnly = settings.keys.length === 1 && settings.keys[0] === 'dev-key';
  const logger = pino({ level: settings.logLevel }, pino.destination({ dest: 1, sync: false }));
  const proxy = createProxy({
    upstream: settings.upstream,
    enforce: settings.enforce,
    failOn: settings.failOn,
    strict: settings.strict,
    settleMs: settings.settleMs,
    ...(settings.partitionHeaders.length > 0 ? { partitionHeaders: settings.partitionHeaders } : {}),
    sharedCredentials: settings.sharedCredentials,
    timeoutMs: settings.timeoutMs,
    keys: settings.keys,
    ...browserAccess(settings),
    logger,
    publicFiles: loadWebPages({ defaultKey: defaultKeyOnly ? 'dev-key' : undefined }),
    ...(settings.record ? { record: resolve(settings.record) } : {}),
    ...(settings.document ? { document: resolve(settings.document) } : {}),
  });
  // Each client has its share of the connections: by the proxy's own keys, else by address (the API's keys are the
  // upstream's, which the proxy cannot tell from made-up ones).
  const server = createServer(proxy.listener, { clientKeys: settings.keys });
  server.listen(settings.port, settings.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`petstore-mock proxy: cannot listen: ${error.message}\n`);
    process.exit(1);
  });
  server.on('listening', () => {
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    // A key the user chose is a secret of theirs: the banner says where it came from, not what it is.
    const key = defaultKeyOnly ? 'key dev-key' : `${settings.keys.length} key(s) from ${settings.keysFrom}, not shown`;
    process.stdout.write(
      [
        `petstore-mock proxy: judging the traffic to ${settings.upstream} against openapi.yaml`,
        `  Proxy      http://${host}:${address.port}/v1`,
        `  Mode       ${settings.enforce ? 'enforce (invalid requests refused, invalid answers replaced)' : 'report (traffic passes unchanged)'}`,
        `  Fails on   ${settings.failOn === 'none' ? 'nothing' : `${settings.failOn === 'any' ? 'the client’s or the deployment’s' : `the ${settings.failOn}’s`} failing findings${settings.strict ? ' and warnings' : ''}`}`,
        `  Report     ${settings.report ?? 'GET /__admin/violations (no file)'}`,
        ...(settings.junit ? [`  JUnit      ${settings.junit}`] : []),
        ...(settings.record ? [`  Recording  ${settings.record}`] : []),
        `  Dashboard  http://${host}:${address.port}/__admin/ui (${key})`,
        ...accessLines(settings),
        '',
      ].join('\n'),
    );
    const warning = bindWarning(settings);
    if (warning) process.stderr.write(`petstore-mock proxy: ${warning}\n`);
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      const report = proxy.report;
      const lines = ['', 'Coverage of the document by the traffic:', report.coverageTable(), ''];
      const written = writeOutputs(settings, proxy);
      lines.push(...written.lines);
      const levels = report.levels();
      const side = (name: string, counts: Record<string, number>) =>
        `${name}: ${counts.fail} fail, ${counts.warn} warn, ${counts.observed} observed`;
      lines.push(side('Deployment', levels.deployment), side('Client', levels.client));
      const failing = report.failingCount;
      const policy = `--fail-on ${report.failOn}${report.strict ? ', --strict' : ''}`;
      lines.push(failing === 0 ? `Nothing fails (${policy}).` : `${failing} failing finding(s) (${policy}).`, '');
      process.stdout.write(lines.join('\n'));
      logger.flush();
      process.exit(failing > 0 || written.failed ? 1 : 0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  // Signals, and a parent that goes (npx): see when-told-to-stop.ts.
  whenToldToStop(server, stop, { pidFile: settings.pidFile });
}

import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { parseFlags, UsageError } from '../config/usage-error.js';
import { createServer } from '../node/create-server.js';
import { loadWebPages } from '../node/web-pages.js';
import { whenToldToStop } from '../node/when-told-to-stop.js';
import { checkUpstream, createProxy } from './create-proxy.js';
import { RecordingError } from './pet-recording.js';

export interface ProxyCliOptions {
  upstream: string;
  host: string;
  port: number;
  logLevel: string;
  enforce: boolean;
  timeoutMs: number;
  report: string | undefined;
  junit: string | undefined;
  record: string | undefined;
}

export const proxyUsage = `Usage: petstore-mock proxy --upstream URL [flags]

Forwards every request under /v1 to URL (the API's base address, ending with /v1),
judges each request and answer against openapi.yaml, and reports what breaks it.

  --upstream URL   the deployment to forward to (env PETSTORE_UPSTREAM)
  --host HOST      address to bind (default 127.0.0.1)
  --port PORT      port to listen on (default 4011; 0 picks a free one)
  --enforce        refuse invalid requests (400) and replace invalid answers (502)
  --report FILE    write the violations and coverage as JSON when the proxy stops
  --junit FILE     write JUnit XML (one case per operation and status seen) when it stops
  --record FILE    collect the pets of valid answers into a fixture file when it stops
  --timeout MS     how long the upstream may stay silent (default 30000; then 504)
  --log-level LVL  fatal, error, warn, info, debug, trace or silent (default info)

The proxy exits 1 when it stops after seeing violations, 0 otherwise.
`;

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function parseProxyOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ProxyCliOptions | 'help' {
  const values = parseFlags(argv, {
    upstream: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    enforce: { type: 'boolean' },
    report: { type: 'string' },
    junit: { type: 'string' },
    record: { type: 'string' },
    timeout: { type: 'string' },
    'log-level': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) return 'help';
  const upstream = (values.upstream as string | undefined) ?? env.PETSTORE_UPSTREAM;
  if (upstream === undefined || upstream === '') {
    throw new UsageError('an upstream is required: pass --upstream URL (the API base address, ending with /v1)');
  }
  try {
    checkUpstream(upstream);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const whole = (name: string, text: string, min: number, max: number): number => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
    }
    return Number(text);
  };
  const logLevel = (values['log-level'] as string | undefined) ?? 'info';
  if (!levels.includes(logLevel)) {
    throw new UsageError(`--log-level must be one of ${levels.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  return {
    upstream,
    host: (values.host as string | undefined) ?? '127.0.0.1',
    port: whole('port', (values.port as string | undefined) ?? '4011', 0, 65_535),
    logLevel,
    enforce: values.enforce === true,
    timeoutMs: whole('timeout', (values.timeout as string | undefined) ?? '30000', 1, 600_000),
    report: values.report as string | undefined,
    junit: values.junit as string | undefined,
    record: values.record as string | undefined,
  };
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
  const logger = pino({ level: settings.logLevel }, pino.destination({ dest: 1, sync: false }));
  const proxy = createProxy({
    upstream: settings.upstream,
    enforce: settings.enforce,
    timeoutMs: settings.timeoutMs,
    logger,
    publicFiles: loadWebPages({ defaultKey: 'dev-key' }),
    ...(settings.record ? { record: resolve(settings.record) } : {}),
  });
  const server = createServer(proxy.listener);
  server.listen(settings.port, settings.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`petstore-mock proxy: cannot listen: ${error.message}\n`);
    process.exit(1);
  });
  server.on('listening', () => {
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    process.stdout.write(
      [
        `petstore-mock proxy: judging the traffic to ${settings.upstream} against openapi.yaml`,
        `  Proxy      http://${host}:${address.port}/v1`,
        `  Mode       ${settings.enforce ? 'enforce (invalid requests refused, invalid answers replaced)' : 'report (traffic passes unchanged)'}`,
        `  Report     ${settings.report ?? 'GET /__admin/violations (no file)'}`,
        `  Dashboard  http://${host}:${address.port}/__admin/ui (key dev-key)`,
        '',
      ].join('\n'),
    );
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      const report = proxy.report;
      const lines = ['', 'Coverage of the document by the traffic:', report.coverageTable(), ''];
      let failed = false;
      if (settings.report) writeFileSync(resolve(settings.report), `${JSON.stringify(report.toJson(), null, 2)}\n`);
      if (settings.junit) writeFileSync(resolve(settings.junit), report.toJunit());
      if (proxy.recording) {
        try {
          const summary = proxy.recording.save();
          lines.push(`Recorded ${summary.recorded} pets in ${summary.file}`);
          for (const skipped of summary.notRecorded) {
            lines.push(`  not recorded (${skipped.count}×): ${skipped.reason}; e.g. ${skipped.example}`);
          }
        } catch (error) {
          if (!(error instanceof RecordingError)) throw error;
          lines.push(`Not recorded: ${error.message}`);
          failed = true;
        }
      }
      const count = report.violationCount;
      lines.push(count === 0 ? 'No violation of the document.' : `${count} violation(s) of the document.`, '');
      process.stdout.write(lines.join('\n'));
      logger.flush();
      process.exit(count > 0 || failed ? 1 : 0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  whenToldToStop(server, stop); // issue 19: signals, a parent that goes (npx), PETSTORE_PID_FILE
}

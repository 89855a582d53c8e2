import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename, extname, join } from 'node:path';
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type pinoPretty from 'pino-pretty';
import {
  adminBasePath,
  defaultBasePath as apiBasePath,
  defaultMaxPets,
  defaultMaxStoreBytes,
  defaultMaxTotalStoreBytes,
} from './core/create-mock-core.js';
import type { Mock, SharedMock } from './create-mock.js';
import { StoreBytesFullError, StoreFullError } from './core/store/store-errors.js';
import { createNodeMock } from './node/create-node-mock.js';
import type { StateHealth } from './core/state/state-store.js';
import { createNodeListener } from './node/node-listener.js';
import { createServer } from './node/create-server.js';
import { isScenarioPath } from './node/read-fixtures.js';
import { loadValidators } from './node/load-validators.js';
import { loadWebPages } from './node/web-pages.js';
import { whenToldToStop } from './node/when-told-to-stop.js';
import {
  accessLines,
  bindWarning,
  helpText,
  parseOptions,
  toAppOptions,
  UsageError,
  type CliOptions,
} from './config/parse-options.js';
import { packageRoot } from './package-root.js';
import { StateFile } from './persistence/state-file.js';

/**
 * pino-pretty, loaded only for `--log-format pretty` (a terminal's default): thirty files of CommonJS that a
 * mock logging JSON (a pipe's default: CI, scripts, tests) would read and compile for nothing at every start.
 */
const pretty = (options: pinoPretty.PrettyOptions) =>
  (createRequire(import.meta.url)('pino-pretty') as typeof pinoPretty)(options);

const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };

/** The key to paste into the "Try" line: one that works as pasted, without printing a key of the user's. */
function tryKey(options: CliOptions, env: NodeJS.ProcessEnv): { key: string; note?: string } {
  if (options.keys.length === 1 && options.keys[0] === 'dev-key') return { key: 'dev-key' };
  if (options.keysFrom === 'PETSTORE_TOKEN' && options.keys.length === 1 && env.PETSTORE_TOKEN !== undefined) {
    return { key: '$PETSTORE_TOKEN' };
  }
  return { key: 'YOUR_KEY', note: 'put one of your keys in place of YOUR_KEY' };
}

/** A request to try first: the first list of the document, a small page of it (`/pets?limit=5`), or its first read-only path. */
function tryPath(mock: Mock | SharedMock): string {
  const list = mock.api.operations.find((each) => each.kind === 'list');
  if (list) return `${list.operation.pathTemplate}${list.page ? `?${list.page.name}=5` : ''}`;
  const safe = mock.compiled.operations.find(
    (operation) => operation.method === 'GET' && !operation.pathTemplate.includes('{'),
  );
  return safe?.pathTemplate ?? '/';
}

/**
 * The banner's line on a shared store: where it is (never with a password),
 * whether it answers, and what its server keeps across a restart.
 */
function storeLine(options: CliOptions, health: StateHealth | undefined): string[] {
  const report = health?.store;
  if (!report) return [];
  const where = `${report.url} (prefix ${report.prefix})`;
  if (!report.reachable) {
    return [
      `  Store      ${where}: not answering since ${report.since} (${report.reason ?? 'not connected'})`,
      `             requests answer 503 store_unavailable until it answers; the mock keeps trying`,
    ];
  }
  return [
    `  Store      ${where}, shared by every replica started with it`,
    ...(report.persistence ? [`             ${report.persistence}`] : []),
  ];
}

function banner(
  options: CliOptions,
  address: AddressInfo,
  stateFile: StateFile | undefined,
  mock: Mock | SharedMock,
  health: StateHealth | undefined,
): string {
  // A shared store's scenario is the server's to say, and it may not answer: the one the mock starts sessions on.
  const scenario =
    'shared' in mock
      ? isScenarioPath(options.scenario)
        ? basename(options.scenario, extname(options.scenario))
        : options.scenario
      : mock.scenario;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  const defaultKeyOnly = options.keys.length === 1 && options.keys[0] === 'dev-key';
  // A key the user chose is a secret of theirs: show that it is set, not what it is.
  const keyText = defaultKeyOnly ? 'dev-key' : `${options.keys.length} key(s) from ${options.keysFrom} (not shown)`;
  const asked = isScenarioPath(options.scenario)
    ? basename(options.scenario, extname(options.scenario))
    : options.scenario;
  const scenarioText =
    isScenarioPath(options.scenario) && scenario === asked ? `${scenario} (${options.scenario})` : scenario;
  const lines = [
    `petstore-mock ${version}: the ${mock.compiled.document.info.title}, mocked from ${options.document ?? 'openapi.yaml'}`,
    `  API        ${origin}${apiBasePath}`,
    `  Docs       ${origin}/`,
    `  Dashboard  ${origin}${adminBasePath}/ui`,
    `  Key        ${keyText}`,
    `  Scenario   ${scenarioText}`,
  ];
  if (scenario !== asked) {
    lines.push(`             from the state file, not '${asked}' as asked: move the state file away to start afresh`);
  }
  if (stateFile) {
    const loaded = stateFile.loaded;
    const restored = loaded
      ? Object.entries(loaded)
          .filter(([name]) => name !== 'scenario')
          .map(([name, count]) => `${count} ${name}`)
          .join(', ')
      : undefined;
    lines.push(`  State      ${stateFile.path} (${restored === undefined ? 'new' : `${restored} restored`})`);
  }
  lines.push(...storeLine(options, health));
  if (options.now !== undefined) lines.push(`  Clock      starts at ${new Date(options.now).toISOString()}`);
  if (options.latency) {
    const { min, max } = options.latency;
    lines.push(`  Latency    ${min === max ? `${min} ms` : `${min}-${max} ms`} per request`);
  }
  if (options.maxPets !== defaultMaxPets) lines.push(`  Max items  ${options.maxPets} of each collection per session`);
  if (options.maxStoreBytes !== defaultMaxStoreBytes || options.maxTotalStoreBytes !== defaultMaxTotalStoreBytes) {
    lines.push(`  Max bytes  ${options.maxStoreBytes} per session, ${options.maxTotalStoreBytes} in all`);
  }
  lines.push(...accessLines(options));
  const { key, note } = tryKey(options, process.env);
  lines.push(`  Try        curl -H "Authorization: Bearer ${key}" "${origin}${apiBasePath}${tryPath(mock)}"`);
  if (note) lines.push(`             (${note})`);
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env, process.stdout.isTTY === true);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`petstore-mock: ${error.message}\nRun petstore-mock --help for the flags.\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(helpText());
    return;
  }
  if (options.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  const logger = pino(
    { level: options.logLevel },
    options.logFormat === 'pretty'
      ? pretty({
          destination: 1,
          sync: false,
          translateTime: 'SYS:HH:MM:ss.l',
          // One line per request for people; the fields stay whole in the JSON format.
          ignore: 'pid,hostname,req,res,responseTime',
          messageFormat: (log, messageKey) => {
            const { req, res, responseTime } = log as {
              req?: { method: string; url: string };
              res?: { statusCode: number };
              responseTime?: number;
            };
            const message = String(log[messageKey] ?? '');
            return req && res ? `${req.method} ${req.url} ${res.statusCode} ${responseTime ?? '?'} ms` : message;
          },
        })
      : pino.destination({ dest: 1, sync: false }),
  );
  const stateFile = options.stateFile ? new StateFile(options.stateFile, { logger }) : undefined;
  let mock: Mock | SharedMock;
  try {
    const defaultKeyOnly = options.keys.length === 1 && options.keys[0] === 'dev-key';
    const validators = options.validators === undefined ? undefined : await loadValidators(options.validators);
    mock = createNodeMock({
      ...toAppOptions(options),
      ...(validators ? { validators } : {}),
      logger,
      publicFiles: loadWebPages({ defaultKey: defaultKeyOnly ? 'dev-key' : undefined }),
      ...(stateFile ? { stateFile } : {}),
    });
  } catch (error) {
    cannotStart(error);
  }
  if ('shared' in mock) {
    // The store opens (the Redis client loaded, the server given one deadline to answer) before the mock listens.
    const shared = mock;
    shared.ready.then(
      () => listen(options, logger, stateFile, shared),
      (error: unknown) => cannotStart(error),
    );
  } else {
    listen(options, logger, stateFile, mock);
  }
}

/** Says why the mock cannot start, naming the flag to change where one would, and exits with 1. */
function cannotStart(error: unknown): never {
  const flag =
    error instanceof StoreBytesFullError && error.scope === 'mock' ? '--max-total-store-bytes' : '--max-store-bytes';
  const reason =
    error instanceof StoreFullError
      ? `${error.what} holds ${error.wanted} ${error.collection}, more than --max-pets allows (${error.maxItems}); raise --max-pets`
      : error instanceof StoreBytesFullError
        ? `${error.what} holds ${error.wanted} bytes of ${error.collection} (as JSON), more than ${flag} allows (${error.maxBytes}); raise ${flag}`
        : (error as Error).message;
  process.stderr.write(`petstore-mock: cannot start: ${reason}\n`);
  process.exit(1);
}

/** Serves the mock, prints the banner once it listens, and stops it when told to. */
function listen(options: CliOptions, logger: Logger, stateFile: StateFile | undefined, mock: Mock | SharedMock): void {
  // Each key and session (or, without a key, each address) has its share of the connections (issue 27).
  const server = createServer(createNodeListener(mock), { clientKeys: options.keys });
  server.listen(options.port, options.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE' ? `port ${options.port} is already in use on ${options.host}` : error.message;
    process.stderr.write(`petstore-mock: cannot listen: ${reason}\n`);
    process.exit(1);
  });
  server.on('listening', () => {
    const health = 'shared' in mock ? mock.health() : Promise.resolve(undefined);
    health.then(
      (state) => {
        process.stdout.write(banner(options, server.address() as AddressInfo, stateFile, mock, state));
        const warning = bindWarning(options);
        if (warning) process.stderr.write(`petstore-mock: ${warning}\n`);
        if (state?.store?.reachable && /keeps nothing/.test(state.store.persistence ?? '')) {
          process.stderr.write(
            `petstore-mock: warning: ${state.store.persistence}; give the server snapshots (save) or an append-only file (appendonly yes) to keep them (docs/persistence.md)\n`,
          );
        }
      },
      (error: unknown) => {
        process.stderr.write(`petstore-mock: cannot start: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  });
  let stopping = false;
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'shutting down');
    // Requests in flight finish first, so that what they changed is in the final write of the state file.
    server.close(() => {
      const flushed = stateFile ? stateFile.close() : 'shared' in mock ? mock.close() : Promise.resolve();
      flushed.then(
        () => {
          logger.flush();
          process.exit(0);
        },
        (error: unknown) => {
          process.stderr.write(`petstore-mock: cannot save ${stateFile?.path}: ${(error as Error).message}\n`);
          logger.flush();
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  whenToldToStop(server, stop, { pidFile: options.pidFile });
}

// `petstore-mock proxy ...` is the validating proxy, loaded only then (the mock does not read its modules at start);
// anything else, the mock.
if (process.argv[2] === 'proxy') {
  const { runProxy } = await import('./proxy/proxy-cli.js');
  runProxy(process.argv.slice(3));
} else await main();

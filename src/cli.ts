import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { adminBasePath, apiBasePath, createApp } from './app/create-app.js';
import { helpText, parseOptions, toAppOptions, UsageError, type CliOptions } from './config/parse-options.js';
import { packageRoot } from './package-root.js';

const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function banner(options: CliOptions, address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  const defaultKeyOnly = options.keys.length === 1 && options.keys[0] === 'dev-key';
  // A key the user chose is a secret of theirs: show that it is set, not what it is.
  const keyText = defaultKeyOnly
    ? 'dev-key'
    : `${options.keys.length} key(s) from --token / PETSTORE_TOKEN (not shown)`;
  const curlKey = defaultKeyOnly ? 'dev-key' : '$PETSTORE_TOKEN';
  return [
    `petstore-mock ${version}: the Pet Store animals API, mocked from openapi.yaml`,
    `  API        ${origin}${apiBasePath}`,
    `  Admin      ${origin}${adminBasePath}/scenarios`,
    `  Key        ${keyText}`,
    `  Scenario   ${options.scenario}`,
    `  Try        curl -H "Authorization: Bearer ${curlKey}" "${origin}${apiBasePath}/pets?limit=5"`,
    '',
  ].join('\n');
}

function main(): void {
  let options: CliOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
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
  const logger = pino({ level: options.logLevel }, pino.destination({ dest: 1, sync: false }));
  let app;
  try {
    app = createApp({ ...toAppOptions(options), logger });
  } catch (error) {
    process.stderr.write(`petstore-mock: cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const server = app.listen(options.port, options.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE' ? `port ${options.port} is already in use on ${options.host}` : error.message;
    process.stderr.write(`petstore-mock: cannot listen: ${reason}\n`);
    process.exit(1);
  });
  server.on('listening', () => {
    process.stdout.write(banner(options, server.address() as AddressInfo));
    if (!isLoopback(options.host) && options.keys.length === 1 && options.keys[0] === 'dev-key') {
      process.stderr.write(
        `petstore-mock: warning: listening on ${options.host}, reachable from other machines, with only the default key 'dev-key'. Set --token.\n`,
      );
    }
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      logger.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main();

import type * as PrismHttpModule from '@stoplight/prism-http';
import type { OpenAPIV3 } from 'openapi-types';
import { HttpError } from '../core/errors/http-error.js';
import { silentLogger, type MockLogger } from '../core/support/mock-logger.js';
import type { FallbackMocker } from '../core/pipeline/run-handler.js';

type PrismHttp = typeof PrismHttpModule;
type IHttpOperation = Awaited<ReturnType<PrismHttp['getHttpOperationsFromSpec']>>[number];

/** The mock's pipeline has already checked security and the request, and checks the response itself. */
const prismConfig = {
  checkSecurity: false,
  validateRequest: false,
  validateResponse: false,
  errors: false,
  isProxy: false,
  upstreamProxy: undefined,
} as const;

interface PrismSetup {
  prism: ReturnType<PrismHttp['createInstance']>;
  operations: IHttpOperation[];
}

/** The package that answers operations without a handler: an optional peer dependency, installed by whoever needs it. */
export const prismPackage = '@stoplight/prism-http';

const installHint = `answering it needs ${prismPackage}, an optional peer dependency that is not installed (npm install --save-dev ${prismPackage}@5)`;

/** Prism's package could not be found: not installed, as an optional peer dependency may well be. */
class PrismNotInstalled extends Error {}

/** Whether an import failed because the package is not installed (rather than broken). */
function isNotInstalled(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Answers operations that have no stateful handler with @stoplight/prism-http's
 * mocker (static examples first, then generated from the schema), so the kit
 * keeps working as the document grows. Create it only for a document that
 * has such operations: one whose operations all have handlers never loads Prism.
 *
 * Prism is an optional peer dependency (the kit's own document needs it
 * nowhere): when it is not installed, the mock still starts, logs once what
 * to install, and answers each such operation `501 not_implemented` saying so.
 */
export function createPrismFallback(
  document: OpenAPIV3.Document,
  logger: MockLogger = silentLogger,
  load: () => Promise<unknown> = () => import(prismPackage),
): FallbackMocker {
  const prepare = async (): Promise<PrismSetup> => {
    const prismHttp = (await load().catch((error: unknown) => {
      throw isNotInstalled(error) ? new PrismNotInstalled() : error;
    })) as PrismHttp;
    const operations = await prismHttp.getHttpOperationsFromSpec(structuredClone(document));
    // Prism wants a pino logger with an extra `success` level; its chatter is not the mock's log.
    // pino is loaded here, with Prism, not when the kit is imported.
    const { pino } = await import('pino');
    const prismLogger = pino({ level: 'silent', customLevels: { success: 21 } });
    const prism = prismHttp.createInstance(
      { ...prismConfig, mock: { dynamic: false } },
      { logger: prismLogger as unknown as Parameters<PrismHttp['createInstance']>[1]['logger'] },
    );
    return { prism, operations };
  };
  // Loading Prism takes about a second: start at once, so the first request does not wait for all of it.
  const setup = prepare();
  setup.catch((error: unknown) =>
    error instanceof PrismNotInstalled
      ? logger.warn(
          { package: prismPackage },
          `operations without a handler of the kit will answer 501 not_implemented: ${installHint}`,
        )
      : logger.error({ err: error }, 'Prism could not be loaded'),
  );

  return async function mockWithPrism(operation, request, status) {
    const { prism, operations } = await setup.catch((error: unknown) => {
      if (!(error instanceof PrismNotInstalled)) throw error;
      throw new HttpError('not_implemented', `${operation.operationId} has no handler of the kit: ${installHint}`);
    });
    const resource = operations.find(
      (candidate) => candidate.method.toUpperCase() === operation.method && candidate.path === operation.pathTemplate,
    );
    if (!resource)
      throw new HttpError('mock_failed', `Prism does not know ${operation.method} ${operation.pathTemplate}`);
    const path = operation.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(request.path[name])),
    );
    const query = Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, String(value)]));
    const outcome = await prism.request(
      {
        method: operation.method.toLowerCase() as Parameters<PrismSetup['prism']['request']>[0]['method'],
        url: { path, query },
        headers: Object.fromEntries(Object.entries(request.header).map(([name, value]) => [name, String(value)])),
        body: request.body,
      },
      [resource],
      { ...prismConfig, mock: { dynamic: false, ...(status === undefined ? {} : { code: status }) } },
    )();
    if (outcome._tag === 'Left') {
      throw new HttpError('mock_failed', `Prism could not mock ${operation.operationId}: ${outcome.left.message}`);
    }
    const { statusCode, body } = outcome.right.output;
    // Prism makes every integer 0; an Error body it makes up must still say its own status, as every Error body does.
    const isErrorBody =
      statusCode >= 400 &&
      typeof body === 'object' &&
      body !== null &&
      typeof (body as { status?: unknown }).status === 'number';
    return { status: statusCode, body: isErrorBody ? { ...(body as object), status: statusCode } : body };
  };
}

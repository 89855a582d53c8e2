import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { OpenAPIV3 } from 'openapi-types';
import { pino, type Logger } from 'pino';
import { createAdminDocument } from './admin/admin-document.js';
import { adminHandlers, type AdminContext } from './admin/admin-handlers.js';
import type { PetHandlerContext } from './handlers/define-handler.js';
import type { HandlerTable } from './handlers/handler-types.js';
import { petHandlers } from './handlers/pet-handlers.js';
import { createPrismFallback } from '../node/prism-fallback.js';
import { RequestJournal } from './journal/request-journal.js';
import { compileDocument, type CompiledDocument } from './openapi/compile-document.js';
import { loadDocument } from '../node/load-document.js';
import { DocumentError } from './openapi/document-error.js';
import { resolveRef } from './openapi/resolve-ref.js';
import { defaultDocumentPath, defaultFixturesDir } from '../package-root.js';
import { assignRequestId } from './pipeline/assign-request-id.js';
import { createAuthenticator } from './pipeline/authenticate.js';
import { corsPolicy } from './pipeline/cors-policy.js';
import { createApiRequestHandler } from './pipeline/handle-api-request.js';
import { createFallthroughHandlers } from './pipeline/handle-errors.js';
import { createRequestLogger } from './pipeline/log-request.js';
import { createBodyReader } from './pipeline/read-body.js';
import { createRequestRecorder } from './pipeline/record-request.js';
import { StateFileError, type StateFile } from '../persistence/state-file.js';
import { isScenarioPath, ScenarioCatalogue } from './scenarios/scenario-catalogue.js';
import { PetStore, StoreFullError } from './store/pet-store.js';
import type { Pet } from './types/api-types.js';

export interface AppOptions {
  /** Accepted bearer keys. Default: `['dev-key']`. */
  keys?: string[];
  /** Faker seed for generated scenarios. Default 1. */
  seed?: number;
  /** Pets in the default scenario. Default 50. */
  pets?: number;
  /** A scenario name from the fixtures folder, or a path to a fixture file. Default `default`. */
  scenario?: string;
  /** Simulated latency in ms, fixed or a range. Default none. */
  latency?: { min: number; max: number };
  /** Default: silent. */
  logger?: Logger;
  /** The OpenAPI document: a path or an already parsed object. Default: the kit's openapi.yaml. */
  document?: string | OpenAPIV3.Document;
  fixturesDir?: string;
  /** Largest accepted request body in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /** How many requests the journal keeps. Default 500. */
  journalSize?: number;
  /** A store to use (tests inspect it); a new one otherwise, holding at most `maxPets`. */
  store?: PetStore;
  /** The most pets the store holds; a create beyond it answers `507 store_full`. Default 100,000. */
  maxPets?: number;
  /**
   * Keeps the store across restarts: the saved pets are restored over the
   * scenario (so a reset still goes back to the scenario), and every change
   * is saved. The caller keeps the object to `close()` it (flush) on shutdown.
   */
  stateFile?: StateFile;
}

/** The default of `maxPets` and `--max-pets`. */
export const defaultMaxPets = 100_000;

/** Start-up found more pets (in a scenario or a state file) than the store may hold. */
export class StoreTooSmallError extends Error {
  constructor(
    readonly what: string,
    readonly pets: number,
    readonly maxPets: number,
  ) {
    super(`${what} holds ${pets} pets, more than the store's maximum of ${maxPets}`);
    this.name = 'StoreTooSmallError';
  }
}

function fill(store: PetStore, what: string, pets: readonly Pet[], put: () => void): void {
  try {
    put();
  } catch (error) {
    if (error instanceof StoreFullError) throw new StoreTooSmallError(what, pets.length, error.maxPets);
    throw error;
  }
}

/**
 * The mock: a Node request listener (`http.createServer(app)`, or `createServer`
 * in ./create-server.ts). It answers every request itself, so it can also stand
 * as the last middleware of another app.
 */
export type MockApp = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;

/** Where the animals API is served: the `/v1` every base address of the spec ends with. */
export const apiBasePath = '/v1';
export const adminBasePath = '/__admin';

function compile(document: AppOptions['document']): CompiledDocument {
  if (typeof document === 'object') return compileDocument(document, 'document');
  const path = document ?? defaultDocumentPath;
  return compileDocument(loadDocument(path), path);
}

/** The NewPet field names, read from the document so that no field list is written twice. */
function newPetFields(compiled: CompiledDocument): string[] {
  const newPet = compiled.document.components?.schemas?.NewPet;
  if (!newPet) throw new DocumentError(`${compiled.source}: components.schemas.NewPet is required by the pet handlers`);
  const schema = resolveRef<OpenAPIV3.SchemaObject>(compiled.document, newPet, '/components/schemas/NewPet').value;
  return Object.keys(schema.properties ?? {});
}

function checkHandlers(compiled: CompiledDocument, handlers: HandlerTable<unknown>): void {
  for (const operationId of Object.keys(handlers)) {
    if (!compiled.byId.has(operationId)) {
      throw new DocumentError(
        `${compiled.source}: a handler exists for '${operationId}', but no operation has that id`,
      );
    }
  }
}

/**
 * Builds the mock as an Express app. It never listens and never reads the
 * environment: the CLI does both. Everything it serves is derived from the
 * document, which is compiled here, so a broken document or fixture throws
 * before any request is answered.
 */
export function createApp(options: AppOptions = {}): MockApp {
  const logger = options.logger ?? pino({ level: 'silent' });
  const compiled = compile(options.document);
  checkHandlers(compiled, petHandlers as HandlerTable<unknown>);
  const errorSchema = compiled.document.components?.schemas?.Error;
  if (!errorSchema) throw new DocumentError(`${compiled.source}: components.schemas.Error is required`);

  const scenarios = new ScenarioCatalogue({
    compiled,
    fixturesDir: options.fixturesDir ?? defaultFixturesDir,
    pets: options.pets ?? 50,
    seed: options.seed ?? 1,
  });
  const requested = options.scenario ?? 'default';
  let scenarioName = isScenarioPath(requested) ? scenarios.addFile(requested) : requested;
  const store = options.store ?? new PetStore({ maxPets: options.maxPets ?? defaultMaxPets });
  const petFields = newPetFields(compiled);
  const saved = options.stateFile?.read(compiled, petFields);
  if (saved && saved.scenario !== scenarioName) {
    // The state file wins: it was saved after an admin switch, or by an earlier run, and holds the user's pets.
    if (!scenarios.has(saved.scenario)) {
      throw new StateFileError(
        `${options.stateFile?.path}: was saved with scenario '${saved.scenario}', which is not known now (known: ${scenarios
          .list()
          .map((scenario) => scenario.name)
          .join(', ')}); pass its file with --scenario, or move the state file away to start from '${scenarioName}'`,
      );
    }
    logger.warn(
      { stateFile: options.stateFile?.path, saved: saved.scenario, requested: scenarioName },
      `the state file was saved with scenario '${saved.scenario}': using it, not '${scenarioName}'`,
    );
    scenarioName = saved.scenario;
  }
  const scenario = scenarios.load(scenarioName);
  fill(store, `scenario '${scenarioName}'`, scenario.pets, () => store.load(scenario));
  if (saved) fill(store, `state file ${options.stateFile?.path}`, saved.pets, () => store.restore(saved.pets));
  const journal = new RequestJournal(options.journalSize ?? 500);

  const readBody = createBodyReader(options.bodyLimit ?? 1024 * 1024);
  const authenticate = createAuthenticator(options.keys ?? ['dev-key']);
  const { min, max } = options.latency ?? { min: 0, max: 0 };
  const latency = max > 0 ? () => min + Math.random() * (max - min) : undefined;

  const handleApi = createApiRequestHandler<PetHandlerContext>({
    compiled,
    handlers: petHandlers,
    context: { store, newPetFields: petFields },
    basePath: apiBasePath,
    readBody,
    authenticate,
    ...(compiled.operations.some((operation) => !petHandlers[operation.operationId])
      ? { fallback: createPrismFallback(compiled.document, logger) }
      : {}),
    latency,
    logger,
  });
  // The admin API is the kit's own small document: compiled on its first request, not at every start.
  let handleAdmin: ReturnType<typeof createApiRequestHandler<AdminContext>> | undefined;
  const adminHandler = () =>
    (handleAdmin ??= createApiRequestHandler<AdminContext>({
      compiled: compileDocument(createAdminDocument(errorSchema), 'admin API'),
      handlers: adminHandlers,
      context: { store, scenarios, journal },
      basePath: adminBasePath,
      readBody,
      authenticate,
      logger,
    }));
  const recordRequest = createRequestRecorder(journal);
  // At a level that would not print the request line, pay nothing for it.
  const logRequest = logger.isLevelEnabled('info') ? createRequestLogger(logger) : undefined;

  // Express serves what is outside the two APIs: a JSON 404 for any other path.
  const fallthrough = createFallthroughHandlers(compiled, logger);
  const rest = express();
  rest.disable('x-powered-by');
  rest.set('etag', false);
  rest.use(fallthrough.handleUnknownPath);
  rest.use(fallthrough.handleErrors);

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const api = underBase(url, apiBasePath);
    if (api) {
      recordRequest(req, res);
      handleApi(req, res, api.pathname, api.search).catch((error: unknown) => fallthrough.answerError(res, error));
      return;
    }
    const adminPath = underBase(url, adminBasePath);
    if (adminPath) {
      adminHandler()(req, res, adminPath.pathname, adminPath.search).catch((error: unknown) =>
        fallthrough.answerError(res, error),
      );
      return;
    }
    rest(req, res);
  };

  // Last, so that nothing is written when anything above stops start-up.
  options.stateFile?.watch(store);

  /**
   * The mock, in the order every request meets it: request id → request log →
   * CORS (a preflight is answered here, before authentication) → the API
   * pipeline under /v1 (see handle-api-request.ts), the admin API under
   * /__admin, or Express for anything else. The two APIs run as plain Node
   * handlers rather than behind Express's router, which on Node 20 costs
   * several times the whole pipeline per request (see README, Performance).
   */
  return function petstoreMock(req: IncomingMessage, res: ServerResponse): void {
    assignRequestId(req, res);
    logRequest?.(req, res);
    corsPolicy(req, res, (error) => {
      if (error) fallthrough.answerError(res, error);
      else route(req, res);
    });
  };
}

/** `/v1/pets?limit=5` under `/v1` → `{ pathname: '/pets', search: 'limit=5' }`; `/v1x` is not under `/v1`. */
function underBase(url: string, base: string): { pathname: string; search: string } | undefined {
  if (!url.startsWith(base)) return undefined;
  const rest = url.slice(base.length);
  if (rest !== '' && rest[0] !== '/' && rest[0] !== '?') return undefined;
  const query = rest.indexOf('?');
  const pathname = query === -1 ? rest : rest.slice(0, query);
  return { pathname: pathname === '' ? '/' : pathname, search: query === -1 ? '' : rest.slice(query + 1) };
}

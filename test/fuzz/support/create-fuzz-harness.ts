import type { OpenAPIV3 } from 'openapi-types';
import fc from 'fast-check';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import type { MemoryStore } from '../../../src/core/store/memory-store.js';

type PetStore = MemoryStore;
import { capturePrototypes } from './capture-prototypes.js';
import { checkStoreInvariants } from './check-store-invariants.js';
import { createExchangeChecker } from './create-exchange-checker.js';
import { fuzzBodyBytes, type FuzzRequest } from './fuzz-requests.js';
import { createKeepAliveAgent, NoResponseError, sendRawRequest, type RawResponse } from './send-raw-request.js';
import { petsIn } from '../../support/kit-model.js';

export interface FuzzHarnessOptions {
  /** `http://127.0.0.1:PORT` of the mock under test. */
  origin: string;
  /** Where the store is reset (through its admin API): the mock behind a proxy. Default `origin`. */
  adminOrigin?: string;
  /** The mock's store, inspected after every request. */
  store: PetStore;
  key: string;
  bodyLimit: number;
  /** A request without a complete response after this long is a hang. */
  timeoutMs: number;
  /** Every this many requests, the store goes back to `scenario` through the admin API. */
  resetEvery: number;
  scenario: string;
}

export interface FuzzHarness {
  /** Sends one request and returns every property it broke (empty: all hold). */
  check(request: FuzzRequest): Promise<string[]>;
  /** A fast-check property over `arbitrary`: fails with the broken properties as its message. */
  property(arbitrary: fc.Arbitrary<FuzzRequest>): fc.IAsyncProperty<[FuzzRequest]>;
  /** The mock still answers: a listing with the key, equal to what the store holds. */
  checkHealth(): Promise<string[]>;
  /** How many requests have been sent, resets and health checks included. */
  readonly sent: number;
  /** How many generated requests got each status (0: no response). */
  readonly statuses: ReadonlyMap<number, number>;
  close(): void;
}

/**
 * Drives the mock with generated requests over keep-alive connections and
 * checks, after every one, the exchange (status, Error body, 2xx against the
 * document, body limit, auth), the store's invariants and the built-in
 * prototypes. Resets go through the admin API, as a user's would.
 */
export function createFuzzHarness(options: FuzzHarnessOptions): FuzzHarness {
  const agent = createKeepAliveAgent(2);
  const compiled = compileDocument(loadDocument(defaultDocumentPath), defaultDocumentPath);
  const schemas = compiled.document.components?.schemas ?? {};
  const invariantOptions = {
    validatePet: compiled.validatorAt('/components/schemas/Pet'),
    statuses: ((schemas.PetStatus as OpenAPIV3.SchemaObject | undefined)?.enum ?? []) as string[],
    petFields: ['id', ...Object.keys((schemas.NewPet as OpenAPIV3.SchemaObject | undefined)?.properties ?? {})],
  };
  const checkExchange = createExchangeChecker({ key: options.key, bodyLimit: options.bodyLimit });
  const prototypes = capturePrototypes();
  const auth = { authorization: `Bearer ${options.key}` };
  let sent = 0;
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

  const send = async (
    method: string,
    target: string,
    headers: Record<string, string>,
    body?: Buffer,
    origin = options.origin,
  ) => {
    sent++;
    return sendRawRequest(origin, { method, target, headers, body }, { agent, timeoutMs: options.timeoutMs });
  };

  const expectJson = async (method: string, target: string, body?: unknown): Promise<RawResponse> => {
    const headers = body === undefined ? auth : { ...auth, 'content-type': 'application/json' };
    const response = await send(
      method,
      target,
      headers,
      body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      target.startsWith('/__admin/') ? (options.adminOrigin ?? options.origin) : options.origin,
    );
    if (response.status !== 200) {
      throw new Error(
        `${method} ${target} answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`,
      );
    }
    return response;
  };

  async function check(request: FuzzRequest): Promise<string[]> {
    if (sent % options.resetEvery === 0) await expectJson('POST', '/__admin/scenario', { name: options.scenario });
    // Header values go on the wire as UTF-8 bytes; Node sends each character of a latin1 string as one byte.
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, Buffer.from(value, 'utf8').toString('latin1')]),
    );
    const body = request.body === undefined ? undefined : fuzzBodyBytes(request.body);
    let response: RawResponse;
    try {
      response = await send(request.method, request.target, headers, body);
    } catch (error) {
      if (error instanceof NoResponseError) {
        count(0);
        return [`no response: ${error.message}`];
      }
      throw error;
    }
    count(response.status);
    return [
      ...checkExchange({ method: request.method, target: request.target, headers: request.headers, body }, response),
      ...checkStoreInvariants(options.store, invariantOptions),
      ...prototypes.check(),
    ];
  }

  return {
    check,
    property: (arbitrary) =>
      fc.asyncProperty(arbitrary, async (request) => {
        const problems = await check(request);
        if (problems.length > 0) throw new Error(`broken properties:\n  - ${problems.join('\n  - ')}`);
      }),
    async checkHealth() {
      try {
        const response = await expectJson('GET', '/v1/pets?limit=100');
        const listed = (JSON.parse(response.body.toString('utf8')) as Array<{ id: number }>).map((pet) => pet.id);
        const stored = petsIn(options.store)
          .list({ limit: 100 })
          .map((pet) => pet.id);
        return listed.join() === stored.join() ? [] : [`the API lists ${listed}, the store holds ${stored}`];
      } catch (error) {
        return [`the mock no longer answers: ${(error as Error).message}`];
      }
    },
    get sent() {
      return sent;
    },
    statuses,
    close: () => agent.destroy(),
  };
}

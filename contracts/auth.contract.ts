import { describe, it } from 'vitest';
import type { Int64 } from '../src/contract/exact-ids.js';
import type { AuthMode } from '../src/contract/http-client.js';
import { keyVariants } from '../src/contract/key-variants.js';
import type { CompiledOperation } from '../src/core/openapi/compile-document.js';
import { oneWithSeed } from './support/body-generators.js';
import { type ContractSession, forEachDeployment, type RequestParts } from './support/contract-session.js';
import { limitFacts, parameterSchema } from './support/document-facts.js';
import { petsOf } from './support/pet-samples.js';

interface WrongCredential {
  label: string;
  /** Undefined when the valid key does not allow building it. */
  auth: AuthMode | undefined;
  cannot: string;
}

/** Credentials every operation must answer with 401: none, malformed, a wrong scheme, unknown and near-miss keys. */
function wrongCredentials(token: string, namePrefix: string): WrongCredential[] {
  const header = (value: string): AuthMode => ({ kind: 'header', value });
  return [
    { label: 'without an Authorization header', auth: { kind: 'none' }, cannot: '' },
    { label: "with an empty 'Bearer' credential", auth: header('Bearer '), cannot: '' },
    { label: 'with the key under a wrong scheme (Basic)', auth: header(`Basic ${token}`), cannot: '' },
    { label: 'with an unknown key', auth: header(`Bearer ${namePrefix}unknown-key`), cannot: '' },
    ...keyVariants(token).map(({ label, key, cannot }) => ({
      label,
      auth: key === undefined ? undefined : header(`Bearer ${key}`),
      cannot,
    })),
  ];
}

forEachDeployment((api: ContractSession) => {
  const { token, readOnly, namePrefix, seed } = api.settings;
  const credentials = wrongCredentials(token, namePrefix);
  const limits = limitFacts(api.compiled, api.operation('listPets'));

  let listedId: Int64 | undefined;
  /** The last pet of the default page: other checks ask for the first one, so a cache has not seen it yet. */
  async function someId(): Promise<Int64> {
    if (listedId === undefined) {
      const response = await api.call('listPets', { query: {} });
      listedId = petsOf(response).at(-1)?.id ?? 1;
    }
    return listedId;
  }

  /**
   * A request for the operation that would be accepted with the right key (in
   * read-only mode, one that writes nothing), on an address no other check asks
   * for first, so that a cache in front of the service is empty before it.
   */
  async function acceptableRequest(operation: CompiledOperation): Promise<RequestParts> {
    const params: Record<string, Int64> = {};
    for (const segment of operation.segments) if (typeof segment !== 'string') params[segment.param] = await someId();
    const request: RequestParts = { path: api.pathOf(operation.operationId, params) };
    if (operation.parameters.some((p) => p.in === 'query' && p.name === 'limit')) {
      request.query = { limit: String(Math.min(limits.maximum, limits.minimum + 6)) };
    }
    if (operation.requestBody) {
      // A read-only run never sends a body that could be stored, even to a deployment with an auth hole.
      request.body = { json: readOnly ? {} : oneWithSeed(api.bodies(operation.operationId).valid, seed) };
    }
    return request;
  }

  /** A request that is invalid besides lacking a key: a path id that is not an integer, a query value below its minimum, malformed JSON. */
  function invalidRequest(operation: CompiledOperation): { request: RequestParts; what: string } {
    const params: Record<string, string> = {};
    const what: string[] = [];
    for (const segment of operation.segments) {
      if (typeof segment !== 'string') {
        params[segment.param] = 'not-an-id';
        what.push(`${segment.param}=not-an-id`);
      }
    }
    const request: RequestParts = { path: api.pathOf(operation.operationId, params) };
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      const { minimum } = parameterSchema(api.compiled, operation, parameter.name);
      if (minimum !== undefined) {
        request.query = { ...request.query, [parameter.name]: String(minimum - 1) };
        what.push(`${parameter.name}=${minimum - 1}`);
      }
    }
    if (operation.requestBody) {
      request.body = { raw: '{"name": ' };
      what.push('malformed JSON body');
    }
    return { request, what: what.join(', ') || 'no other fault' };
  }

  for (const operation of api.compiled.operations) {
    const { operationId } = operation;
    describe(operationId, () => {
      describe('authentication', () => {
        let request: RequestParts | undefined;
        const requestFor = async (): Promise<RequestParts> => (request ??= await acceptableRequest(operation));

        const refuseEach = (when: string): void => {
          for (const { label, auth, cannot } of credentials) {
            it(`answers 401 with an Error ${label}`, async () => {
              if (auth === undefined) {
                api.record('unproven', operationId, `no request ${label} can be made: ${cannot}`);
                return;
              }
              const response = await api.call(operationId, { ...(await requestFor()), auth });
              api.verify(
                response.status === 401,
                `auth hole: ${operationId} ${label}${when} answered ${response.status}, expected 401`,
              );
            });
          }
        };

        refuseEach('');

        it('answers the same request with the valid key (not 401)', async () => {
          const response = await api.call(operationId, await requestFor());
          api.verify(
            response.status !== 401,
            `${operationId} answered 401 to the valid key: the authentication checks prove nothing`,
          );
        });

        describe('after a request with the valid key', () => refuseEach(' after a request with the valid key'));

        it('answers 401 before validating an otherwise invalid request', async () => {
          const { request: invalid, what } = invalidRequest(operation);
          const response = await api.call(operationId, { ...invalid, auth: { kind: 'none' } });
          api.verify(
            response.status === 401,
            `auth skipped for invalid input: ${operationId} without a key and with ${what} answered ${response.status}, expected 401`,
          );
        });
      });
    });
  }
});

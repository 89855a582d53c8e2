import { describe, it } from 'vitest';
import type { AuthMode, ContractRequest } from '../src/contract/http-client.js';
import type { CompiledOperation } from '../src/core/openapi/compile-document.js';
import { oneWithSeed } from './support/body-generators.js';
import { type ContractSession, useContract } from './support/contract-session.js';
import { parameterSchema } from './support/document-facts.js';
import { petsOf } from './support/pet-samples.js';

const api: ContractSession = useContract();
const { token, readOnly, namePrefix, seed } = api.settings;

const wrongCredentials: Array<{ label: string; auth: AuthMode }> = [
  { label: 'without an Authorization header', auth: { kind: 'none' } },
  { label: "with an empty 'Bearer' credential", auth: { kind: 'header', value: 'Bearer ' } },
  { label: 'with the key under a wrong scheme (Basic)', auth: { kind: 'header', value: `Basic ${token}` } },
  { label: 'with an unknown key', auth: { kind: 'header', value: `Bearer ${namePrefix}unknown-key` } },
];

let listedId: number | undefined;
async function someId(): Promise<number> {
  if (listedId === undefined) {
    const response = await api.call('listPets', { query: {} });
    listedId = petsOf(response)[0]?.id ?? 1;
  }
  return listedId;
}

type RequestParts = Omit<ContractRequest, 'method'>;

/** A request for the operation that would be accepted with the right key (in read-only mode, one that writes nothing). */
async function acceptableRequest(operation: CompiledOperation): Promise<RequestParts> {
  const params: Record<string, number> = {};
  for (const segment of operation.segments) if (typeof segment !== 'string') params[segment.param] = await someId();
  const request: RequestParts = { path: api.pathOf(operation.operationId, params) };
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
  describe(operation.operationId, () => {
    describe('authentication', () => {
      for (const { label, auth } of wrongCredentials) {
        it(`answers 401 with an Error ${label}`, async () => {
          const response = await api.call(operation.operationId, { ...(await acceptableRequest(operation)), auth });
          api.verify(
            response.status === 401,
            `auth hole: ${operation.operationId} ${label} answered ${response.status}, expected 401`,
          );
        });
      }

      it('answers 401 before validating an otherwise invalid request', async () => {
        const { request, what } = invalidRequest(operation);
        const response = await api.call(operation.operationId, { ...request, auth: { kind: 'none' } });
        api.verify(
          response.status === 401,
          `auth skipped for invalid input: ${operation.operationId} without a key and with ${what} answered ${response.status}, expected 401`,
        );
      });
    });
  });
}

import type { Credential } from '../../core/oracle/classify-request.js';
import type { CompiledOperation } from '../../core/openapi/compile-document.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession, RequestParts } from '../contract-session.js';
import type { Int64 } from '../exact-ids.js';
import type { AuthMode } from '../http-client.js';
import { keyVariants } from '../key-variants.js';
import { oneWithSeed } from '../support/body-generators.js';
import { limitFacts, parameterSchema } from '../support/document-facts.js';
import { petsOf } from '../support/pet-samples.js';

interface SentCredential {
  label: string;
  /** Undefined when the valid key does not allow building it. */
  auth: AuthMode | undefined;
  /** What it is, for the oracle: a near miss looks like a key, but is `wrong`. */
  credential: Credential;
  cannot: string;
}

/** Credentials every operation must answer with 401: none, malformed, a wrong scheme, unknown and near-miss keys. */
function wrongCredentials(token: string, namePrefix: string): SentCredential[] {
  const header = (value: string): AuthMode => ({ kind: 'header', value });
  return [
    { label: 'without an Authorization header', auth: { kind: 'none' }, credential: 'none', cannot: '' },
    { label: "with an empty 'Bearer' credential", auth: header('Bearer '), credential: 'malformed', cannot: '' },
    {
      label: 'with the key under a wrong scheme (Basic)',
      auth: header(`Basic ${token}`),
      credential: 'malformed',
      cannot: '',
    },
    {
      label: 'with an unknown key',
      auth: header(`Bearer ${namePrefix}unknown-key`),
      credential: 'wrong',
      cannot: '',
    },
    ...keyVariants(token).map(({ label, key, cannot }) => ({
      label,
      auth: key === undefined ? undefined : header(`Bearer ${key}`),
      credential: 'wrong' as const,
      cannot,
    })),
  ];
}

/**
 * Authentication, for every operation of the document: the request that
 * the valid key gets answered is sent with each wrong credential (the
 * oracle fails anything but 401), again after a request with the valid key
 * (a cache in front must not leak), with the valid key under the scheme
 * written `bearer` (RFC 9110: the scheme is case-insensitive), and without a
 * key but otherwise invalid (401 comes before validation).
 */
export function authChecks(api: ContractSession, checks: CheckList): void {
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
  function invalidRequest(operation: CompiledOperation): RequestParts {
    const params: Record<string, string> = {};
    for (const segment of operation.segments) if (typeof segment !== 'string') params[segment.param] = 'not-an-id';
    const request: RequestParts = { path: api.pathOf(operation.operationId, params) };
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      const { minimum } = parameterSchema(api.compiled, operation, parameter.name);
      if (minimum !== undefined) request.query = { ...request.query, [parameter.name]: String(minimum - 1) };
    }
    if (operation.requestBody) request.body = { raw: '{"name": ' };
    return request;
  }

  for (const operation of api.compiled.operations) {
    const { operationId } = operation;
    // A valid createPet body is stored: in read-only mode these send `{}` instead, which no deployment can store.
    const add = (name: string, run: () => Promise<void>) => checks.add(operationId, `authentication › ${name}`, run);
    let request: RequestParts | undefined;
    const requestFor = async (): Promise<RequestParts> => (request ??= await acceptableRequest(operation));

    const refuseEach = (when: string): void => {
      for (const { label, auth, credential, cannot } of credentials) {
        add(`${when}answers 401 with an Error ${label}`, async () => {
          if (auth === undefined) {
            api.unproven(`no request ${label} can be made: ${cannot}`);
            return;
          }
          await api.call(operationId, { ...(await requestFor()), auth }, { credential });
        });
      }
    };

    refuseEach('');

    add('answers the same request with the valid key (not 401)', async () => {
      await api.call(operationId, await requestFor());
    });

    add("accepts the valid key with the scheme written 'bearer' (RFC 9110: case-insensitive)", async () => {
      // A read of the list instead of a write: a scheme accepted once is accepted for every operation.
      const read = operation.method === 'GET' ? await requestFor() : undefined;
      if (!read) {
        api.unproven(`${operationId} writes: the scheme's letter case is checked on the operations that read`);
        return;
      }
      await api.call(
        operationId,
        { ...read, auth: { kind: 'header', value: `bearer ${token}` } },
        { credential: 'valid' },
      );
    });

    refuseEach('after a request with the valid key › ');

    add('answers 401 before validating an otherwise invalid request', async () => {
      await api.call(operationId, { ...invalidRequest(operation), auth: { kind: 'none' } }, { credential: 'none' });
    });
  }
}

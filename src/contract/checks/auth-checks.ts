import type { Resource } from '../../core/model/describe-api.js';
import { writesByMethod } from '../../core/model/operation-kind.js';
import type { Credential } from '../../core/oracle/classify-request.js';
import type { CompiledOperation } from '../../core/openapi/compile-document.js';
import type { CheckList } from '../check-runner.js';
import type { ContractSession, RequestParts } from '../contract-session.js';
import type { ItemId } from '../exact-ids.js';
import type { AuthMode } from '../http-client.js';
import { keyVariants } from '../key-variants.js';
import { oneWithSeed } from '../support/body-generators.js';
import { parameterSchema } from '../support/document-facts.js';
import { itemsOf, unknownIds } from '../support/item-samples.js';
import { accessOf } from '../support/read-back.js';
import { createFor } from './create-checks.js';

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
 *
 * An operation whose method may write (anything but GET, HEAD and OPTIONS)
 * is checked only when the run may write: in read-only mode none of its
 * requests is sent, with any key, since a deployment with an authentication
 * hole would act on it. Its item is one created for the purpose, never one
 * the deployment already held.
 */
export function authChecks(api: ContractSession, checks: CheckList, operations: readonly CompiledOperation[]): void {
  const { token, namePrefix, seed } = api.settings;
  const credentials = wrongCredentials(token, namePrefix);

  const listed = new Map<string, Promise<ItemId>>();
  /** The last item of a resource's default page: other checks ask for the first one, so a cache has not seen it yet. */
  function someId(resource: Resource): Promise<ItemId> {
    let found = listed.get(resource.name);
    if (!found) {
      found = (async () => {
        const { list } = accessOf(api, resource);
        const response = list ? await api.call(list.operation, { query: {} }) : undefined;
        return (response ? itemsOf(resource, response).at(-1)?.id : undefined) ?? 1;
      })();
      listed.set(resource.name, found);
    }
    return found;
  }

  const made = new Map<string, Promise<ItemId | undefined>>();
  /** An item created for the writes' authentication checks (one per resource), else an id no item has. */
  async function ownId(resource: Resource): Promise<ItemId> {
    let found = made.get(resource.name);
    if (!found) {
      found = createFor(api, accessOf(api, resource));
      made.set(resource.name, found);
    }
    return (await found) ?? unknownIds(api, resource, [])[0] ?? 1;
  }

  /**
   * A request for the operation that would be accepted with the right key, on
   * an address no other check asks for first, so that a cache in front of the
   * service is empty before it.
   */
  async function acceptableRequest(operation: CompiledOperation): Promise<RequestParts> {
    const semantics = api.api.of(operation);
    const { resource, page } = semantics;
    const params: Record<string, ItemId> = {};
    for (const segment of operation.segments) {
      if (typeof segment === 'string') continue;
      const writes = writesByMethod(operation.method);
      params[segment.param] =
        resource && segment.param === semantics.idParameter ? await (writes ? ownId(resource) : someId(resource)) : 1;
    }
    const request: RequestParts = { path: api.pathOf(operation, params) };
    if (page && page.minimum !== undefined && page.maximum !== undefined) {
      request.query = { [page.name]: String(Math.min(page.maximum, page.minimum + 6)) };
    }
    if (operation.requestBody) request.body = { json: oneWithSeed(api.bodies(operation).valid, seed) };
    return request;
  }

  /** A request that is invalid besides lacking a key: a path id that is not an integer, a query value below its minimum, malformed JSON. */
  function invalidRequest(operation: CompiledOperation): RequestParts {
    const params: Record<string, string> = {};
    for (const segment of operation.segments) if (typeof segment !== 'string') params[segment.param] = 'not-an-id';
    const request: RequestParts = { path: api.pathOf(operation, params) };
    for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
      const { minimum } = parameterSchema(api.compiled, operation, parameter.name);
      if (minimum !== undefined) request.query = { ...request.query, [parameter.name]: String(minimum - 1) };
    }
    if (operation.requestBody) request.body = { raw: '{"": ' };
    return request;
  }

  for (const operation of operations) {
    const { operationId } = operation;
    const writes = writesByMethod(operation.method);
    const add = (name: string, run: () => Promise<void>) =>
      checks.add(operationId, `authentication › ${name}`, run, { writes });
    let request: Promise<RequestParts> | undefined;
    const requestFor = (): Promise<RequestParts> => (request ??= acceptableRequest(operation));

    const refuseEach = (when: string): void => {
      for (const { label, auth, credential, cannot } of credentials) {
        add(`${when}answers 401 with an Error ${label}`, async () => {
          if (auth === undefined) {
            api.unproven(`no request ${label} can be made: ${cannot}`);
            return;
          }
          await api.call(operation, { ...(await requestFor()), auth }, { credential });
        });
      }
    };

    refuseEach('');

    add('answers the same request with the valid key (not 401)', async () => {
      await api.call(operation, await requestFor());
    });

    add("accepts the valid key with the scheme written 'bearer' (RFC 9110: case-insensitive)", async () => {
      // A read instead of a write: a scheme accepted once is accepted for every operation.
      if (writes) {
        api.unproven(`${operationId} writes: the scheme's letter case is checked on the operations that read`);
        return;
      }
      await api.call(
        operation,
        { ...(await requestFor()), auth: { kind: 'header', value: `bearer ${token}` } },
        { credential: 'valid' },
      );
    });

    refuseEach('after a request with the valid key › ');

    add('answers 401 before validating an otherwise invalid request', async () => {
      await api.call(operation, { ...invalidRequest(operation), auth: { kind: 'none' } }, { credential: 'none' });
    });
  }
}

import { describe, it } from 'vitest';
import { oneWithSeed } from './support/body-generators.js';
import {
  type ContractResponse,
  type ContractSession,
  forEachDeployment,
  type RequestParts,
} from './support/contract-session.js';
import { parameterSchema, statusValues } from './support/document-facts.js';
import { enumNearMisses, integerBoundaries } from './support/schema-probes.js';

// Behaviour the document leaves open: recorded in the report, never a failure.
forEachDeployment((api: ContractSession) => {
  const { readOnly, seed } = api.settings;
  const listPets = api.operation('listPets');
  const outsideLimits = integerBoundaries(parameterSchema(api.compiled, listPets, 'limit')).invalid.map(String);
  const statusMisses = enumNearMisses(statusValues(api.compiled, listPets)).slice(0, 2);

  function summary(response: ContractResponse): string {
    const body = response.body as { code?: unknown } | undefined;
    const code = typeof body?.code === 'string' ? ` (code ${body.code})` : '';
    return `${response.status}${code}, ${response.contentType || 'no Content-Type'}`;
  }

  async function observe(operationId: string, what: string, request: RequestParts): Promise<ContractResponse> {
    const response = await api.call(operationId, request, { observe: true });
    const notes = response.violations.map((violation) => violation.message);
    api.record(
      'observed',
      operationId,
      `${what} → ${summary(response)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
    );
    return response;
  }

  describe('listPets', () => {
    describe('observed, not specified', () => {
      it(`records the answer to limit=${outsideLimits.join(' and limit=')}`, async () => {
        for (const limit of outsideLimits) await observe('listPets', `limit=${limit}`, { query: { limit } });
      });

      it('records the answer to an unknown status value and to a near miss of a known one', async () => {
        await observe('listPets', 'status=unknown-status', { query: { status: 'unknown-status' } });
        for (const { value, what } of statusMisses) {
          await observe('listPets', `status=${JSON.stringify(value)} (${what})`, { query: { status: value } });
        }
      });

      it('records paging headers', async () => {
        const response = await api.call('listPets', { query: {} }, { observe: true });
        const paging = Object.entries(response.headers).filter(([name]) =>
          /link|page|total|cursor|next|range|count/i.test(name),
        );
        api.record(
          'observed',
          'listPets',
          paging.length === 0
            ? 'no paging headers'
            : `paging headers: ${paging.map(([n, v]) => `${n}: ${v}`).join('; ')}`,
        );
      });
    });
  });

  describe('getPet', () => {
    describe('observed, not specified', () => {
      it('records the answer to a malformed id', async () => {
        await observe('getPet', 'petId=abc', { path: api.pathOf('getPet', { petId: 'abc' }) });
      });
    });
  });

  describe('createPet', () => {
    describe.skipIf(readOnly)('observed, not specified', () => {
      it("records the status of a pet created without 'status'", async () => {
        const body = oneWithSeed(api.bodies('createPet').minimal, seed);
        const response = await api.call('createPet', { body: { json: body } }, { observe: true });
        const status = (response.body as { status?: unknown } | undefined)?.status;
        api.record(
          'observed',
          'createPet',
          response.status === 201
            ? `a pet created without 'status' has status ${status === undefined ? '(absent)' : JSON.stringify(status)}`
            : `creating a pet without 'status' → ${summary(response)}`,
        );
      });
    });
  });
});

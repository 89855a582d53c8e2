import { describe, it } from 'vitest';
import type { ContractResponse } from '../src/contract/http-client.js';
import { oneWithSeed } from './support/body-generators.js';
import { type ContractSession, useContract } from './support/contract-session.js';
import { limitFacts } from './support/document-facts.js';

// Behaviour the document leaves open: recorded in the report, never a failure.
const api: ContractSession = useContract();
const { readOnly, seed } = api.settings;
const limits = limitFacts(api.compiled, api.operation('listPets'));

function summary(response: ContractResponse): string {
  const body = response.json as { code?: unknown } | undefined;
  const code = typeof body?.code === 'string' ? ` (code ${body.code})` : '';
  return `${response.status}${code}, ${response.contentType || 'no Content-Type'}`;
}

async function observe(operationId: string, what: string, request: Parameters<ContractSession['call']>[1]) {
  const response = await api.call(operationId, request, { observe: true });
  const notes = api
    .problemsOf(response)
    .map((problem) =>
      problem.replace(/^undocumented status \d+ for \S+ \(documented: (.*)\)$/, 'undocumented: openapi.yaml lists $1'),
    );
  api.record(
    'observed',
    operationId,
    `${what} → ${summary(response)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
  );
  return response;
}

describe('listPets', () => {
  describe('observed, not specified', () => {
    it(`records the answer to limit=${limits.minimum - 1} and limit=${limits.maximum + 1}`, async () => {
      await observe('listPets', `limit=${limits.minimum - 1}`, { query: { limit: String(limits.minimum - 1) } });
      await observe('listPets', `limit=${limits.maximum + 1}`, { query: { limit: String(limits.maximum + 1) } });
    });

    it('records the answer to an unknown status value', async () => {
      await observe('listPets', 'status=unknown-status', { query: { status: 'unknown-status' } });
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
      const status = (response.json as { status?: unknown } | undefined)?.status;
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

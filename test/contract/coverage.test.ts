import { describe, expect, it } from 'vitest';
import { computeCoverage, coverageLines, documentedResponses } from '../../src/contract/coverage.js';
import { loadDocument } from '../../src/node/load-document.js';
import { defaultDocumentPath } from '../../src/package-root.js';

const document = loadDocument(defaultDocumentPath);

describe('computeCoverage', () => {
  it('lists each operation with the statuses openapi.yaml documents for it', () => {
    expect(documentedResponses(document)).toEqual([
      { operationId: 'listPets', statuses: ['200', '401'] },
      { operationId: 'createPet', statuses: ['201', '400', '401'] },
      { operationId: 'getPet', statuses: ['200', '401', '404'] },
    ]);
  });

  it('counts the responses received per documented status, then the undocumented ones', () => {
    const coverage = computeCoverage(document, [
      { operationId: 'listPets', status: 200 },
      { operationId: 'listPets', status: 200 },
      { operationId: 'listPets', status: 400 },
      { operationId: 'getPet', status: 404 },
    ]);
    expect(coverage.documentedReceived).toBe(2);
    expect(coverage.documented).toBe(8);
    expect(coverage.rows.slice(0, 3)).toEqual([
      { operationId: 'listPets', status: '200', documented: true, received: 2 },
      { operationId: 'listPets', status: '401', documented: true, received: 0 },
      { operationId: 'listPets', status: '400', documented: false, received: 1 },
    ]);
    expect(coverageLines(coverage)).toEqual([
      'Coverage: 2 of 8 documented responses received',
      '  operation  status  received',
      '  listPets   200     2',
      '  listPets   401     not received',
      '  listPets   400     1 (not documented)',
      '  createPet  201     not received',
      '  createPet  400     not received',
      '  createPet  401     not received',
      '  getPet     200     not received',
      '  getPet     401     not received',
      '  getPet     404     1',
    ]);
  });
});

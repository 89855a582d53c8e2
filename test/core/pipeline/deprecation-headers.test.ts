import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { deprecationHeaders } from '../../../src/core/pipeline/deprecation-headers.js';
import { defaultDocument } from '../../../src/generated/default-document.js';

const compiled = compileDocument(defaultDocument);
const operation = (id: string, document = compiled) => {
  const found = document.byId.get(id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe('deprecationHeaders', () => {
  it('announces getPet from the document: Deprecation @epoch of x-deprecated-at, Sunset, and the successor', () => {
    expect(deprecationHeaders(compiled, operation('getPet'), '/v1')).toEqual({
      deprecation: `@${Date.UTC(2026, 10, 22) / 1000}`,
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: '</v1/pets>; rel="successor-version"',
    });
  });

  it('names the successor under the base path the API is served at', () => {
    expect(deprecationHeaders(compiled, operation('getPet'), '/api/v2').link).toBe(
      '</api/v2/pets>; rel="successor-version"',
    );
  });

  it('gives the operations that are not deprecated no headers', () => {
    expect(deprecationHeaders(compiled, operation('listPets'), '/v1')).toEqual({});
    expect(deprecationHeaders(compiled, operation('createPet'), '/v1')).toEqual({});
  });

  it('sends only what the document states for a deprecated operation without dates or successor', () => {
    const document = structuredClone(defaultDocument);
    const getPet = document.paths['/pets/{petId}']?.get as OpenAPIV3.OperationObject & Record<string, unknown>;
    delete getPet['x-deprecated-at'];
    delete getPet['x-sunset'];
    delete getPet['x-replaced-by'];
    const bare = compileDocument(document);
    expect(deprecationHeaders(bare, operation('getPet', bare), '/v1')).toEqual({});
  });
});

import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors/http-error.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { matchRoute as matchRouteUnder } from '../../../src/core/pipeline/match-route.js';
import type { CompiledDocument } from '../../../src/core/openapi/compile-document.js';

/** The route of a path under /v1, as the pipeline calls it. */
const matchRoute = (compiled: CompiledDocument, method: string, pathname: string) =>
  matchRouteUnder(compiled, method, pathname, { basePath: '/v1', path: `/v1${pathname}` });

const shipped = loadDocument(defaultDocumentPath);
const compiled = compileDocument(shipped, defaultDocumentPath);

function refusal(method: string, pathname: string, document = compiled): HttpError {
  try {
    matchRoute(document, method, pathname);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error(`${method} ${pathname} matched`);
}

describe('matchRoute', () => {
  it('matches GET /pets to listPets and POST /pets to createPet, without path parameters', () => {
    expect(matchRoute(compiled, 'GET', '/pets')).toMatchObject({
      operation: { operationId: 'listPets' },
      pathParams: {},
    });
    expect(matchRoute(compiled, 'POST', '/pets')).toMatchObject({
      operation: { operationId: 'createPet' },
      pathParams: {},
    });
  });

  it('matches GET /pets/42 to getPet with the id as text', () => {
    expect(matchRoute(compiled, 'GET', '/pets/42')).toMatchObject({
      operation: { operationId: 'getPet' },
      pathParams: { petId: '42' },
    });
  });

  it('leaves a path parameter that is not a number for validation to refuse', () => {
    expect(matchRoute(compiled, 'GET', '/pets/abc').pathParams).toEqual({ petId: 'abc' });
  });

  it('percent-decodes path parameters', () => {
    expect(matchRoute(compiled, 'GET', '/pets/4%32').pathParams).toEqual({ petId: '42' });
    expect(matchRoute(compiled, 'GET', '/pets/%E5%B0%8F%E7%99%BD').pathParams).toEqual({ petId: '小白' });
    expect(matchRoute(compiled, 'GET', '/pets/a%2Fb').pathParams).toEqual({ petId: 'a/b' });
  });

  it.each(['/nope', '/pets/1/extra', '/', '/pets/', '/v1/pets', '/PETS'])(
    'refuses %s with 404 route_not_found listing the known paths',
    (pathname) => {
      const error = refusal('GET', pathname);
      expect(error.status).toBe(404);
      expect(error.code).toBe('route_not_found');
      expect(error.message).toBe(`no operation is at GET /v1${pathname} (paths: /v1/pets, /v1/pets/{petId})`);
    },
  );

  it('refuses DELETE /pets with 405 method_not_allowed and Allow: GET, POST', () => {
    const error = refusal('DELETE', '/pets');
    expect(error.status).toBe(405);
    expect(error.code).toBe('method_not_allowed');
    expect(error.headers).toEqual({ allow: 'GET, POST' });
    expect(error.message).toBe('DELETE is not allowed on /v1/pets; allowed: GET, POST');
  });

  it('refuses PUT /pets/1 with 405 method_not_allowed and Allow: GET', () => {
    const error = refusal('PUT', '/pets/1');
    expect(error.status).toBe(405);
    expect(error.code).toBe('method_not_allowed');
    expect(error.headers).toEqual({ allow: 'GET' });
  });

  it('treats the method case-sensitively, as HTTP does', () => {
    expect(refusal('get', '/pets').code).toBe('method_not_allowed');
  });

  it.each(['/pets/%E0%A4%A', '/pets/%', '/pets/%zz', '/%C3%28'])(
    'refuses the badly percent-encoded %s with 404 rather than crashing',
    (pathname) => {
      const error = refusal('GET', pathname);
      expect(error.status).toBe(404);
      expect(error.code).toBe('route_not_found');
      expect(error.message).toBe(`the path ${JSON.stringify(`/v1${pathname}`)} is not correctly percent-encoded`);
    },
  );

  describe('with a literal path beside a templated one', () => {
    const document = structuredClone(shipped) as OpenAPIV3.Document;
    const getPet = document.paths['/pets/{petId}']?.get as OpenAPIV3.OperationObject;
    document.paths['/pets/mine'] = {
      get: { operationId: 'listMyPets', responses: getPet.responses },
    };
    const withLiteral = compileDocument(document, 'with-literal.yaml');

    it('prefers the literal path, as OpenAPI asks', () => {
      expect(matchRoute(withLiteral, 'GET', '/pets/mine')).toMatchObject({
        operation: { operationId: 'listMyPets' },
        pathParams: {},
      });
      expect(matchRoute(withLiteral, 'GET', '/pets/7').operation.operationId).toBe('getPet');
    });

    it('answers 405 with the methods of the literal path only', () => {
      expect(refusal('POST', '/pets/mine', withLiteral).headers).toEqual({ allow: 'GET' });
    });
  });

  it('answers a path asked for again from what it matched before, frozen, and another method anew', () => {
    const first = matchRoute(compiled, 'GET', '/pets/7');
    expect(matchRoute(compiled, 'GET', '/pets/7')).toBe(first);
    expect(Object.isFrozen(first.pathParams)).toBe(true);
    expect(matchRoute(compiled, 'GET', '/pets/8').pathParams).toEqual({ petId: '8' });
    expect(refusal('DELETE', '/pets/7').code).toBe('method_not_allowed');
    expect(matchRoute(compiled, 'POST', '/pets').operation.operationId).toBe('createPet');
  });
});

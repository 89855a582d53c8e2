import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { compileDocument, type CompiledOperation } from '../../../src/core/openapi/compile-document.js';
import { DocumentError } from '../../../src/core/openapi/document-error.js';
import { createAdminDocument } from '../../../src/core/admin/admin-document.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { judgeResponseValue } from '../../../src/core/oracle/judge-response.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { caught } from '../../support/caught.js';

const shipped = loadDocument(defaultDocumentPath);
const compiled = compileDocument(shipped, defaultDocumentPath);

function operation(operationId: string): CompiledOperation {
  const found = compiled.byId.get(operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

const pet = { id: 1, name: 'Bella', categoryId: 1, status: 'available' };

/** What the mock's own response validation finds, field by field (the rule set lets it send any status). */
const checkResponse = (op: CompiledOperation | undefined, status: number, mediaType: string, body: unknown) =>
  judgeResponseValue(compiled, op, status, mediaType, body, { allowUndocumentedStatus: true }).flatMap(
    (violation) => violation.details ?? [{ location: 'response', field: '', message: violation.message }],
  );

/** A deep copy of the shipped document, loosely typed so a test can break it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
function brokenCopy(breakIt: (document: Loose) => void): OpenAPIV3.Document {
  const copy = structuredClone(shipped) as Loose;
  breakIt(copy);
  return copy as OpenAPIV3.Document;
}

function compileError(document: OpenAPIV3.Document): DocumentError {
  return caught(DocumentError, () => compileDocument(document, 'broken.yaml'), 'the broken document');
}

describe('compileDocument on the shipped document', () => {
  it('compiles exactly the three operations of the API, with their methods and paths', () => {
    expect(compiled.operations.map((o) => [o.operationId, o.method, o.pathTemplate])).toEqual([
      ['listPets', 'GET', '/pets'],
      ['createPet', 'POST', '/pets'],
      ['getPet', 'GET', '/pets/{petId}'],
    ]);
    expect([...compiled.byId.keys()].sort()).toEqual(['createPet', 'getPet', 'listPets']);
    expect(compiled.source).toBe(defaultDocumentPath);
  });

  it('splits each path template into literal segments and parameters', () => {
    expect(operation('listPets').segments).toEqual(['pets']);
    expect(operation('getPet').segments).toEqual(['pets', { param: 'petId' }]);
  });

  it('records the parameters of each operation with their location, type and default', () => {
    expect(operation('listPets').parameters).toEqual([
      {
        name: 'limit',
        in: 'query',
        required: false,
        explode: true,
        shape: { type: 'integer', itemType: undefined, default: 20 },
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        explode: true,
        shape: { type: 'string', itemType: undefined, default: undefined },
      },
    ]);
    expect(operation('getPet').parameters).toEqual([
      {
        name: 'petId',
        in: 'path',
        required: true,
        explode: false,
        shape: { type: 'integer', itemType: undefined, default: undefined },
      },
    ]);
    expect(operation('createPet').parameters).toEqual([]);
  });

  it('validates parameters per location against their schemas', () => {
    const query = operation('listPets').parameterValidators.query;
    expect(query({ limit: 20, status: 'sold' })).toBe(true);
    expect(query({ limit: 0 })).toBe(false);
    expect(query({ limit: 101 })).toBe(false);
    expect(query({ status: 'lost' })).toBe(false);
    expect(query({ page: 2 })).toBe(false);
    const path = operation('getPet').parameterValidators.path;
    expect(path({ petId: 42 })).toBe(true);
    expect(path({})).toBe(false);
  });

  it('records the request body of createPet as a required JSON body checked against NewPet', () => {
    const body = operation('createPet').requestBody;
    expect(body?.required).toBe(true);
    expect(body?.mediaTypes).toEqual(['application/json']);
    const validate = body?.validators.get('application/json');
    expect(validate?.({ name: 'Bella', categoryId: 1 })).toBe(true);
    expect(validate?.({ name: 'Bella' })).toBe(false);
    expect(validate?.({ name: 'Bella', categoryId: 1, status: 'lost' })).toBe(false);
    expect(operation('listPets').requestBody).toBeUndefined();
  });

  it('records the documented responses of each operation and their examples', () => {
    expect([...operation('listPets').responses.keys()]).toEqual(['200', '401']);
    expect([...operation('createPet').responses.keys()]).toEqual(['201', '400', '401']);
    expect([...operation('getPet').responses.keys()]).toEqual(['200', '401', '404']);
    expect(operation('getPet').responses.get('404')?.examples.get('default')).toEqual({
      code: 'pet_not_found',
      message: 'no pet has id 42',
      status: 404,
    });
    expect(operation('listPets').responses.get('401')?.examples.get('default')).toMatchObject({ status: 401 });
  });

  it('marks getPet deprecated with its sunset date and replacement, and the others not', () => {
    expect(operation('getPet')).toMatchObject({ deprecated: true, sunset: '2030-12-05', replacedBy: 'listPets' });
    expect(operation('listPets')).toMatchObject({ deprecated: false, sunset: undefined, replacedBy: undefined });
  });

  it('gives a cached validator for a schema of the document by pointer', () => {
    const validate = compiled.validatorAt('/components/schemas/PetStatus');
    expect(compiled.validatorAt('/components/schemas/PetStatus')).toBe(validate);
    expect(validate('sold')).toBe(true);
    expect(validate('lost')).toBe(false);
  });

  it('shares one validator between a schema that is only a $ref and the schema it names', () => {
    const body = compiled.validatorAt('/paths/~1pets/post/requestBody/content/application~1json/schema');
    expect(body).toBe(compiled.validatorAt('/components/schemas/NewPet'));
    expect(operation('listPets').responses.get('401')?.validators.get('application/json')).toBe(compiled.validateError);
    // A schema with more than the reference is its own.
    expect(operation('listPets').parameterValidators.query).not.toBe(compiled.validateError);
  });

  it('stops with a DocumentError naming a pointer that leads to no schema', () => {
    expect(() => compiled.validatorAt('/components/schemas/Nope')).toThrow(DocumentError);
    expect(() => compiled.validatorAt('/components/schemas/Nope')).toThrow('schema at /components/schemas/Nope');
  });

  it('validates Error bodies', () => {
    expect(compiled.validateError({ code: 'x', message: 'y', status: 400 })).toBe(true);
    expect(compiled.validateError({ code: 'x', message: 'y', status: 400, details: [] })).toBe(true);
    expect(compiled.validateError({ code: 'x', message: 'y' })).toBe(false);
  });
});

describe("Ajv's meta-schema check of the schemas", () => {
  it("checks a user's document whole: a keyword of the wrong type stops it, naming the document", () => {
    const document = structuredClone(shipped) as unknown as {
      components: { schemas: { NewPet: { properties: { name: Record<string, unknown> } } } };
    };
    document.components.schemas.NewPet.properties.name.minLength = 'three';
    expect(() => compileDocument(document as unknown as OpenAPIV3.Document, 'mine.yaml')).toThrow(
      /^mine\.yaml: .*minLength/,
    );
  });

  it('finds nothing in the kit’s own document and the admin API’s, which mocks compile without checking again', () => {
    // Copies: the objects a mock compiles are marked checked; these are not, so the check runs whole.
    const kit = structuredClone(defaultDocument);
    expect(() => compileDocument(kit, 'openapi.yaml')).not.toThrow();
    const adminDocument = createAdminDocument(structuredClone(defaultDocument.components?.schemas ?? {}), ['pets']);
    expect(() => compileDocument(adminDocument, 'admin API')).not.toThrow();
  });
});

describe('the response rules over compiled schemas', () => {
  it('accepts bodies that conform to the documented response', () => {
    expect(checkResponse(operation('listPets'), 200, 'application/json', [pet, { ...pet, id: 2 }])).toEqual([]);
    expect(checkResponse(operation('listPets'), 200, 'application/json', [])).toEqual([]);
    expect(checkResponse(operation('createPet'), 201, 'application/json', pet)).toEqual([]);
    expect(checkResponse(operation('getPet'), 200, 'application/json; charset=utf-8', pet)).toEqual([]);
    expect(
      checkResponse(operation('getPet'), 404, 'application/json', {
        code: 'pet_not_found',
        message: 'no pet has id 42',
        status: 404,
      }),
    ).toEqual([]);
  });

  it('accepts a pet without a status, which the document allows', () => {
    expect(checkResponse(operation('getPet'), 200, 'application/json', { id: 1, name: 'A', categoryId: 1 })).toEqual(
      [],
    );
  });

  it('names every field of an invalid pet list', () => {
    const details = checkResponse(operation('listPets'), 200, 'application/json', [
      { ...pet, status: 'lost' },
      { name: 'No id', categoryId: '1' },
    ]);
    expect(details).toEqual([
      {
        location: 'response',
        field: '[0].status',
        message: 'must be one of: available, pending, sold',
        keyword: 'enum',
      },
      { location: 'response', field: '[1].categoryId', message: 'must be integer', keyword: 'type' },
      { location: 'response', field: '[1].id', message: 'is required', keyword: 'required' },
    ]);
  });

  it('refuses a single pet where a list is documented', () => {
    expect(checkResponse(operation('listPets'), 200, 'application/json', pet)).toEqual([
      { location: 'response', field: '', message: 'must be array', keyword: 'type' },
    ]);
  });

  it('refuses a pet with a non-integer id or a status of the wrong type', () => {
    const fields = checkResponse(operation('getPet'), 200, 'application/json', { ...pet, id: 1.5, status: 5 }).map(
      (detail) => `${detail.field} ${detail.keyword}`,
    );
    expect(fields).toContain('id type');
    expect(fields).toContain('status type');
  });

  it('refuses an Error body whose status is not an integer', () => {
    expect(
      checkResponse(operation('getPet'), 404, 'application/json', { code: 'x', message: 'y', status: '404' }),
    ).toEqual([{ location: 'response', field: 'status', message: 'must be integer', keyword: 'type' }]);
  });

  it('checks a status the operation does not list against the Error schema', () => {
    const listPets = operation('listPets');
    expect(checkResponse(listPets, 500, 'application/json', { code: 'x', message: 'y', status: 500 })).toEqual([]);
    expect(checkResponse(listPets, 500, 'application/json', { code: 'x', message: 'y' })).toEqual([
      { location: 'response', field: 'status', message: 'is required', keyword: 'required' },
    ]);
    expect(checkResponse(listPets, 404, 'application/json', [pet])).toEqual([
      { location: 'response', field: '', message: 'must be object', keyword: 'type' },
    ]);
  });

  it('checks a response without an operation (no route matched) against the Error schema', () => {
    expect(
      checkResponse(undefined, 404, 'application/json', {
        code: 'route_not_found',
        message: 'm',
        status: 404,
      }),
    ).toEqual([]);
    expect(checkResponse(undefined, 404, 'application/json', 'Not Found')).not.toEqual([]);
  });

  it('refuses a media type the response does not document', () => {
    expect(checkResponse(operation('listPets'), 200, 'text/plain', '[]')).toEqual([
      {
        location: 'response',
        field: '',
        message: "Content-Type 'text/plain' is not documented for status 200 (documented: application/json)",
      },
    ]);
  });
});

describe('compileDocument on a broken document', () => {
  it('stops with a DocumentError naming an unresolved schema reference and the schema that holds it', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.components.schemas.Pets.items.$ref = '#/components/schemas/Nope';
      }),
    );
    expect(error.message).toMatch(/^broken\.yaml: schema at \/components\/schemas\/Pets: /);
    expect(error.message).toContain('#/components/schemas/Nope');
  });

  it('stops with a DocumentError naming an unresolved response reference and its operation', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths['/pets'].get.responses['401'].$ref = '#/components/responses/Nope';
      }),
    );
    expect(error.message).toBe(
      "broken.yaml: GET /pets: /paths/~1pets/get/responses/401: unresolved reference '#/components/responses/Nope'",
    );
  });

  it('stops with a DocumentError naming an operation without an operationId', () => {
    const error = compileError(
      brokenCopy((d) => {
        delete d.paths['/pets'].post.operationId;
      }),
    );
    expect(error.message).toBe('broken.yaml: POST /pets has no operationId');
  });

  it('stops with a DocumentError naming an operationId used twice', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths['/pets'].post.operationId = 'listPets';
      }),
    );
    expect(error.message).toBe("broken.yaml: operationId 'listPets' is used twice");
  });

  it('stops with a DocumentError naming a path parameter the operation does not declare', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths['/pets/{id}'] = d.paths['/pets/{petId}'];
        delete d.paths['/pets/{petId}'];
      }),
    );
    expect(error.message).toBe("broken.yaml: GET /pets/{id}: path parameter 'id' is not declared");
  });

  it('stops with a DocumentError naming a declared path parameter the path does not hold', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths['/pets/all'] = d.paths['/pets/{petId}'];
        delete d.paths['/pets/{petId}'];
      }),
    );
    expect(error.message).toBe("broken.yaml: GET /pets/all: path parameter 'petId' is declared but not in the path");
  });

  it('stops with a DocumentError naming the value of a schema type Ajv does not know', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.components.schemas.NewPet.properties.categoryId.type = 'intger';
      }),
    );
    expect(error.message).toMatch(/^broken\.yaml: schema at /);
    expect(error.message).toContain('intger');
  });

  it('stops with a DocumentError naming a misspelt schema keyword', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.components.schemas.NewPet.properties.name.maxLenght = 3;
      }),
    );
    expect(error.message).toContain('unknown keyword: "maxLenght"');
  });

  it('stops with a DocumentError when components.schemas.Error is missing', () => {
    const renamed = brokenCopy((d) => {
      const text = JSON.stringify(d).replaceAll('#/components/schemas/Error', '#/components/schemas/Problem');
      const copy = JSON.parse(text);
      copy.components.schemas.Problem = copy.components.schemas.Error;
      delete copy.components.schemas.Error;
      Object.assign(d, copy);
    });
    expect(compileError(renamed).message).toBe(
      'broken.yaml: components.schemas.Error is required: every error body uses it',
    );
  });

  it('stops with a DocumentError naming an operation without responses', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths['/pets'].get.responses = {};
      }),
    );
    expect(error.message).toBe('broken.yaml: GET /pets: has no responses');
  });

  it('stops with a DocumentError naming an x-sunset that is not a date', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths['/pets/{petId}'].get['x-sunset'] = 'soon';
      }),
    );
    expect(error.message).toBe('broken.yaml: GET /pets/{petId}: x-sunset must be a date (YYYY-MM-DD), found "soon"');
  });

  it('stops with a DocumentError naming a path that does not start with a slash', () => {
    const error = compileError(
      brokenCopy((d) => {
        d.paths.pets = d.paths['/pets'];
        delete d.paths['/pets'];
      }),
    );
    expect(error.message).toBe("broken.yaml: path 'pets' must start with '/'");
  });
});

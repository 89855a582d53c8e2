import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  describeDetail,
  fromAjvErrors,
  pointerToField,
  summariseDetails,
} from '../../../src/core/errors/from-ajv-errors.js';
import type { ErrorDetail } from '../../../src/core/errors/http-error.js';

const ajv = new Ajv({ allErrors: true });
const validatePets = ajv.compile({
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'categoryId'],
    additionalProperties: false,
    properties: {
      name: { type: 'string' },
      categoryId: { type: 'integer' },
      status: { enum: ['available', 'pending', 'sold'] },
      tags: { type: 'object', additionalProperties: false, properties: { colour: { type: 'string' } } },
    },
  },
});

function errorsFor(value: unknown): ErrorObject[] {
  expect(validatePets(value)).toBe(false);
  return validatePets.errors ?? [];
}

describe('pointerToField', () => {
  it('turns a JSON pointer into a field path with dots for properties and brackets for indexes', () => {
    expect(pointerToField('/pets/2/status')).toBe('pets[2].status');
    expect(pointerToField('/categoryId')).toBe('categoryId');
    expect(pointerToField('/b/2/c')).toBe('b[2].c');
    expect(pointerToField('/0')).toBe('[0]');
    expect(pointerToField('/0/1/name')).toBe('[0][1].name');
  });

  it('keeps the empty pointer (the whole value) empty', () => {
    expect(pointerToField('')).toBe('');
  });

  it('unescapes ~1 and ~0, in that order, as RFC 6901 asks', () => {
    expect(pointerToField('/a~1b')).toBe('a/b');
    expect(pointerToField('/a~0b')).toBe('a~b');
    expect(pointerToField('/a~01')).toBe('a~1');
  });
});

describe('fromAjvErrors', () => {
  it('names the missing property of a required error, not its parent object', () => {
    expect(fromAjvErrors(errorsFor([{ name: 'Bella' }]), 'body')).toEqual([
      { location: 'body', field: '[0].categoryId', message: 'is required', keyword: 'required' },
    ]);
  });

  it('names a missing top-level property without a leading separator', () => {
    const validate = ajv.compile({ type: 'object', required: ['categoryId'] });
    expect(validate({})).toBe(false);
    expect(fromAjvErrors(validate.errors ?? [], 'body')).toEqual([
      { location: 'body', field: 'categoryId', message: 'is required', keyword: 'required' },
    ]);
  });

  it('names the extra property of an additionalProperties error, nested ones included', () => {
    const details = fromAjvErrors(
      errorsFor([{ name: 'Bella', categoryId: 1, colour: 'brown', tags: { size: 'big' } }]),
      'body',
    );
    expect(details).toEqual([
      { location: 'body', field: '[0].colour', message: 'is not allowed here', keyword: 'additionalProperties' },
      { location: 'body', field: '[0].tags.size', message: 'is not allowed here', keyword: 'additionalProperties' },
    ]);
  });

  it('lists the allowed values of an enum error', () => {
    expect(fromAjvErrors(errorsFor([{ name: 'Bella', categoryId: 1, status: 'lost' }]), 'body')).toEqual([
      {
        location: 'body',
        field: '[0].status',
        message: 'must be one of: available, pending, sold',
        keyword: 'enum',
      },
    ]);
  });

  it("keeps Ajv's own message for a type error, at the field's path", () => {
    expect(fromAjvErrors(errorsFor([{ name: 'Bella', categoryId: '1' }]), 'response')).toEqual([
      { location: 'response', field: '[0].categoryId', message: 'must be integer', keyword: 'type' },
    ]);
  });

  it('reports every problem when Ajv found several, in its order', () => {
    const details = fromAjvErrors(errorsFor([{ categoryId: 'x', status: 'lost' }]), 'body');
    expect(details.map((detail) => `${detail.field} ${detail.keyword}`)).toEqual([
      '[0].name required',
      '[0].categoryId type',
      '[0].status enum',
    ]);
  });

  it('reports the same problem at the same field once', () => {
    const error: ErrorObject = {
      keyword: 'type',
      instancePath: '/name',
      schemaPath: '#/properties/name/type',
      params: { type: 'string' },
      message: 'must be string',
    };
    expect(fromAjvErrors([error, { ...error, schemaPath: '#/allOf/0/properties/name/type' }], 'body')).toHaveLength(1);
  });

  it('says "is invalid" when Ajv gives no message', () => {
    const error: ErrorObject = { keyword: 'custom', instancePath: '/name', schemaPath: '#', params: {} };
    expect(fromAjvErrors([error], 'query')).toEqual([
      { location: 'query', field: 'name', message: 'is invalid', keyword: 'custom' },
    ]);
  });

  it('returns no details for no errors', () => {
    expect(fromAjvErrors([], 'body')).toEqual([]);
  });
});

describe('describeDetail', () => {
  it('names the location and the field in one sentence', () => {
    expect(describeDetail({ location: 'body', field: 'categoryId', message: 'is required' })).toBe(
      "body field 'categoryId' is required",
    );
    expect(describeDetail({ location: 'query', field: 'limit', message: 'must be <= 100' })).toBe(
      "query parameter 'limit' must be <= 100",
    );
    expect(describeDetail({ location: 'path', field: 'petId', message: 'must be integer' })).toBe(
      "path parameter 'petId' must be integer",
    );
    expect(describeDetail({ location: 'response', field: '[0].id', message: 'is required' })).toBe(
      "response field '[0].id' is required",
    );
    expect(describeDetail({ location: 'fixture', field: 'pets[0].name', message: 'is required' })).toBe(
      "fixture field 'pets[0].name' is required",
    );
  });

  it('speaks of "the body" when the whole body is wrong', () => {
    expect(describeDetail({ location: 'body', field: '', message: 'must be object' })).toBe('the body must be object');
  });
});

describe('summariseDetails', () => {
  const detail = (field: string): ErrorDetail => ({ location: 'body', field, message: 'is required' });

  it('describes a single problem on its own', () => {
    expect(summariseDetails([detail('name')])).toBe("body field 'name' is required");
  });

  it('describes the first problem and counts one more in the singular', () => {
    expect(summariseDetails([detail('name'), detail('categoryId')])).toBe(
      "body field 'name' is required (and 1 more problem)",
    );
  });

  it('describes the first problem and counts several more in the plural', () => {
    expect(summariseDetails([detail('name'), detail('categoryId'), detail('status')])).toBe(
      "body field 'name' is required (and 2 more problems)",
    );
  });

  it('falls back to a general sentence when there are no details', () => {
    expect(summariseDetails([])).toBe('the request is invalid');
  });
});

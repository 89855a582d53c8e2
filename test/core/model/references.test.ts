import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { describeApi } from '../../../src/core/model/describe-api.js';
import { compileDocument } from '../../../src/core/openapi/compile-document.js';
import { loadDocument } from '../../../src/node/load-document.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { evolvedDocumentPath } from '../../evolution/support/evolved-documents.js';

const modelOf = (document: OpenAPIV3.Document) => describeApi(compileDocument(document, 'document'));
const withCategories = () => loadDocument(evolvedDocumentPath('with-categories'));
const schemasOf = (document: OpenAPIV3.Document) =>
  document.components?.schemas as Record<string, OpenAPIV3.SchemaObject & Record<string, unknown>>;

describe('the references between the resources of a document', () => {
  it('reads a field xId as referring to the collection xs, as json-server does: an animal’s categoryId', () => {
    const api = modelOf(withCategories());
    expect(api.resource('pets')?.references).toEqual([
      { field: 'categoryId', collection: 'categories', itemName: 'category', declared: false },
    ]);
    expect(api.resource('categories')?.references).toEqual([]);
  });

  it('finds none in the kit’s document, which has no categories: its categoryId refers to nothing', () => {
    expect(modelOf(defaultDocument).resources.map((resource) => resource.references)).toEqual([[]]);
  });

  it('takes the collection x-petstore-references names, whatever the field’s name', () => {
    const document = withCategories();
    const schemas = schemasOf(document);
    const newPet = schemas.NewPet as OpenAPIV3.SchemaObject;
    newPet.properties = {
      ...newPet.properties,
      group: { type: 'integer', 'x-petstore-references': 'categories' } as never,
    };
    expect(modelOf(document).resource('pets')?.references).toEqual([
      { field: 'categoryId', collection: 'categories', itemName: 'category', declared: false },
      { field: 'group', collection: 'categories', itemName: 'category', declared: true },
    ]);
  });

  it('reads x-petstore-references: false as no reference, whatever the field’s name', () => {
    const document = withCategories();
    const newPet = schemasOf(document).NewPet as OpenAPIV3.SchemaObject;
    (newPet.properties?.categoryId as Record<string, unknown>)['x-petstore-references'] = false;
    expect(modelOf(document).resource('pets')?.references).toEqual([]);
  });

  it('stops at a document whose x-petstore-references names no collection, or one whose ids the field cannot hold', () => {
    const unknown = withCategories();
    const newPet = schemasOf(unknown).NewPet as OpenAPIV3.SchemaObject;
    (newPet.properties?.categoryId as Record<string, unknown>)['x-petstore-references'] = 'kinds';
    expect(() => modelOf(unknown)).toThrow(
      'document: x-petstore-references on Pet.categoryId must name a collection of the document (pets, categories) or be false, found "kinds"',
    );
    const text = withCategories();
    const textPet = schemasOf(text).NewPet as OpenAPIV3.SchemaObject;
    textPet.properties = {
      ...textPet.properties,
      categoryId: { type: 'string', 'x-petstore-references': 'categories' } as never,
    };
    expect(() => modelOf(text)).toThrow(
      'document: Pet.categoryId refers to categories (x-petstore-references), whose ids are of type integer, but it is of type string',
    );
  });

  it('does not take a field of another type for a reference by its name alone', () => {
    const document = withCategories();
    const newPet = schemasOf(document).NewPet as OpenAPIV3.SchemaObject;
    newPet.properties = { ...newPet.properties, categoryId: { type: 'string' } };
    expect(modelOf(document).resource('pets')?.references).toEqual([]);
  });
});

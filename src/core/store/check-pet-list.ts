import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import { normaliseInt64 } from '../json/exact-json.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { resolveRef } from '../openapi/resolve-ref.js';
import type { ExactPet } from '../types/api-types.js';

/** A list of pets that cannot be loaded. Its message names where (`fixture large.yaml`), the pet and the field. */
export class PetListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PetListError';
  }
}

/** The property names of a schema, through `$ref` and `allOf` (Pet is `allOf: [NewPet, {id}]`). */
export function schemaFields(compiled: CompiledDocument, pointer: string): string[] {
  const fields = new Set<string>();
  const visit = (schema: unknown, at: string): void => {
    const resolved = resolveRef<Record<string, unknown>>(compiled.document, schema as Record<string, unknown>, at);
    const { properties, allOf } = resolved.value as { properties?: object; allOf?: unknown[] };
    for (const name of Object.keys(properties ?? {})) fields.add(name);
    allOf?.forEach((member, index) => visit(member, `${resolved.pointer}/allOf/${index}`));
  };
  visit({ $ref: `#${pointer}` }, pointer);
  return [...fields];
}

/**
 * A pet whose integers are in their one `Int64` form: a bigint within ±(2^53−1)
 * (`5n`, as a fixture object may hold it) becomes the number it equals, so that
 * the store finds it by the id a request parses (`5`). The same value, never
 * another one; a pet that needs no change is returned as it is.
 */
function canonicalPet(pet: ExactPet): ExactPet {
  let copy: Record<string, unknown> | undefined;
  for (const [field, value] of Object.entries(pet)) {
    if (typeof value !== 'bigint' || normaliseInt64(value) === value) continue;
    copy ??= { ...pet };
    copy[field] = normaliseInt64(value);
  }
  return (copy ?? pet) as ExactPet;
}

/**
 * The one check of a list of pets, wherever it comes from (a fixture, a state
 * file, a recording): each pet matches the document's `Pet` schema (ids and
 * categoryIds anywhere in int64, exactly), has no field the schema does not
 * name (a served pet never has one), and no id is used twice (`1` and `1n`
 * are the same id). Returns the pets, integers in their one `Int64` form;
 * throws `PetListError` naming `where` and the first problems.
 */
export function createPetListCheck(compiled: CompiledDocument): (pets: unknown, where: string) => ExactPet[] {
  const fields = schemaFields(compiled, '/components/schemas/Pet');
  const validate = compiled.compileSchema({
    type: 'array',
    items: {
      allOf: [
        { $ref: 'openapi.json#/components/schemas/Pet' },
        // Pet does not forbid other properties; a pet the mock serves has exactly the schema's.
        {
          type: 'object',
          properties: Object.fromEntries(fields.map((field) => [field, true])),
          additionalProperties: false,
        },
      ],
    },
  });
  return (pets, where) => {
    if (!validate(pets)) {
      const details = fromAjvErrors(validate.errors ?? [], 'field').map((detail) => ({
        ...detail,
        field: detail.field === '' || detail.field.startsWith('[') ? `pets${detail.field}` : `pets.${detail.field}`,
      }));
      throw new PetListError(`${where}: ${listDetails(details)}`);
    }
    const list = (pets as ExactPet[]).map(canonicalPet);
    const seen = new Set<unknown>();
    for (const [index, pet] of list.entries()) {
      if (seen.has(pet.id)) throw new PetListError(`${where}: pets[${index}].id repeats id ${pet.id}`);
      seen.add(pet.id);
    }
    return list;
  };
}

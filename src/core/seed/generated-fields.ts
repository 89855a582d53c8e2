import type { OpenAPIV3 } from 'openapi-types';
import type { Resource } from '../model/describe-api.js';
import type { FieldFill, GeneratedField } from './draw-items.js';

/** How many values an integer that refers to nothing is drawn from by default (`generate.categories`). */
export const defaultIntegerRange = 5;

/** How a required field of this schema is filled. */
function fillOf(schema: OpenAPIV3.SchemaObject, range: number): FieldFill {
  switch (schema.type) {
    case 'integer': {
      const above = typeof schema.minimum === 'number' ? schema.minimum + (schema.exclusiveMinimum ? 1 : 0) : undefined;
      const below = typeof schema.maximum === 'number' ? schema.maximum - (schema.exclusiveMaximum ? 1 : 0) : undefined;
      const min = above ?? (below !== undefined && below < 1 ? below - range + 1 : 1);
      return { kind: 'integer', min, max: below ?? min + range - 1 };
    }
    case 'number':
      return { kind: 'number', min: schema.minimum ?? 0, max: schema.maximum ?? 100 };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array':
    case 'object':
      return { kind: 'empty', type: schema.type };
    default:
      return { kind: 'text', format: schema.format, minLength: schema.minLength, maxLength: schema.maxLength };
  }
}

/**
 * What the generator fills in an item of the resource, read from its item
 * schema, in the schema's order: each reference (see `Resource.references`)
 * with the id of an item that exists, each state (an enumeration) by weight,
 * and every other required field by its type: a name for a text (or a value
 * of its format), an integer from 1 to `integers` (within the schema's
 * bounds), a number, a boolean. Optional fields that are neither are left out.
 */
export function generatedFields(resource: Resource, integers = defaultIntegerRange): GeneratedField[] {
  const references = new Map(resource.references.map((reference) => [reference.field, reference.collection]));
  const fields: GeneratedField[] = [];
  for (const [name, schema] of resource.properties) {
    if (name === resource.idField) continue;
    const optional = !resource.required.includes(name);
    const collection = references.get(name);
    if (collection !== undefined) {
      fields.push({ name, fill: { kind: 'reference', collection, optional } });
    } else if (resource.states.includes(name)) {
      fields.push({ name, fill: { kind: 'state', values: schema.enum ?? [], optional } });
    } else if (!optional) {
      fields.push({ name, fill: fillOf(schema, integers) });
    }
  }
  return fields;
}

import { fromAjvErrors, listDetails } from '../errors/from-ajv-errors.js';
import { normaliseInt64 } from '../json/exact-json.js';
import type { Resource } from '../model/describe-api.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { Item } from './item-snapshot.js';

/** A list of items that cannot be loaded. Its message names where (`fixture large.yaml`), the item and the field. */
export class ItemListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ItemListError';
  }
}

/**
 * An item whose integers are in their one `Int64` form: a bigint within
 * ±(2^53−1) (`5n`, as a fixture object may hold it) becomes the number it
 * equals, so that the store finds it by the id a request parses (`5`). The
 * same value, never another one; an item that needs no change is returned as it is.
 */
function canonicalItem(item: Item): Item {
  let copy: Record<string, unknown> | undefined;
  for (const [field, value] of Object.entries(item)) {
    if (typeof value !== 'bigint' || normaliseInt64(value) === value) continue;
    copy ??= { ...item };
    copy[field] = normaliseInt64(value);
  }
  return copy ?? item;
}

/** The item schema as a schema of the kit's own: a `$ref` into the document, or the inline schema with its references. */
function itemSchemaRef(resource: Resource): object {
  if (resource.itemSchema.startsWith('/')) return { $ref: `openapi.json#${resource.itemSchema}` };
  return JSON.parse(resource.itemSchema.replaceAll('"#/', '"openapi.json#/')) as object;
}

/**
 * The one check of a list of a resource's items, wherever it comes from (a
 * fixture, a state file, a recording): each item matches the document's item
 * schema (int64 values anywhere in their range, exactly), has no field the
 * schema does not name (a served item never has one), and no id is used
 * twice (`1` and `1n` are the same id). Returns the items, integers in their
 * one `Int64` form; throws `ItemListError` naming `where` and the first problems.
 */
export function createItemListCheck(
  compiled: CompiledDocument,
  resource: Resource,
): (items: unknown, where: string) => Item[] {
  const validate = compiled.compileSchema({
    type: 'array',
    items: {
      allOf: [
        itemSchemaRef(resource),
        // The item schema need not forbid other properties; an item the mock serves has exactly the schema's.
        {
          type: 'object',
          properties: Object.fromEntries(resource.fields.map((field) => [field, true])),
          additionalProperties: false,
        },
      ],
    },
  });
  const { name, idField } = resource;
  return (items, where) => {
    if (!validate(items)) {
      const details = fromAjvErrors(validate.errors ?? [], 'field').map((detail) => ({
        ...detail,
        field:
          detail.field === '' || detail.field.startsWith('[') ? `${name}${detail.field}` : `${name}.${detail.field}`,
      }));
      throw new ItemListError(`${where}: ${listDetails(details)}`);
    }
    const list = (items as Item[]).map(canonicalItem);
    const seen = new Set<unknown>();
    for (const [index, item] of list.entries()) {
      const id = item[idField];
      if (seen.has(id))
        throw new ItemListError(`${where}: ${name}[${index}].${idField} repeats ${idField} ${String(id)}`);
      seen.add(id);
    }
    return list;
  };
}

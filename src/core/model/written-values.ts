import { setOwnField } from '../support/own-field.js';
import type { Reference, Resource } from './describe-api.js';

/** Whose own field this is (a body parsed from JSON may hold `__proto__` as a plain key). */
function own(value: Readonly<Record<string, unknown>>, field: string): boolean {
  return Object.hasOwn(value, field) && value[field] !== undefined;
}

/**
 * What a create or replace body makes an item hold: the fields of the body
 * the item schema names and a body may set (`writable`). A field the
 * document does not name, or the id, is neither stored nor echoed; a field
 * left out stays out (no default is invented). The mock stores exactly this,
 * and the oracle expects exactly this read back.
 */
export function writtenValues(resource: Resource, body: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return values;
  const sent = body as Record<string, unknown>;
  for (const field of resource.writable) if (own(sent, field)) setOwnField(values, field, sent[field]);
  return values;
}

/**
 * What an update body (a JSON merge patch, RFC 7396) asks to change: the
 * writable fields it names, each with its value, `null` meaning "remove".
 */
export function patchValues(resource: Resource, body: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return values;
  const sent = body as Record<string, unknown>;
  for (const field of resource.writable)
    if (Object.hasOwn(sent, field) && sent[field] !== undefined) setOwnField(values, field, sent[field]);
  return values;
}

/** An item's values after a merge patch (RFC 7396): the fields it names take its values, `null` removes one. */
export function mergePatch(
  current: Readonly<Record<string, unknown>>,
  patch: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else setOwnField(merged, field, value);
  }
  return merged;
}

/**
 * The items a write refers to (see `Resource.references`): each reference
 * field its values (`writtenValues`, `patchValues`) set, to anything but null.
 */
export function referencedItems(
  resource: Resource,
  values: Readonly<Record<string, unknown>>,
): Array<{ reference: Reference; id: unknown }> {
  const found: Array<{ reference: Reference; id: unknown }> = [];
  for (const reference of resource.references) {
    if (!Object.hasOwn(values, reference.field)) continue;
    const id = values[reference.field];
    if (id !== null && id !== undefined) found.push({ reference, id });
  }
  return found;
}

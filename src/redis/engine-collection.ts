import type { CollectionShape } from '../core/store/item-snapshot.js';
import { keySegment } from './key-segment.js';

/** A collection as the engine's script is told of it: its shape, and the texts the script reads items by. */
export interface EngineCollection {
  readonly shape: CollectionShape;
  /** Its name as a key segment. */
  readonly seg: string;
  /** The id field's name as its JSON text (`"id"`), how the script finds it in an item. */
  readonly idKey: string;
  readonly indexed: ReadonlyArray<{ field: string; key: string; seg: string }>;
  /** The collection block of the script's arguments. */
  readonly block: readonly string[];
}

export function engineCollection(shape: CollectionShape): EngineCollection {
  const indexed = shape.indexed.map((field) => ({ field, key: JSON.stringify(field), seg: keySegment(field) }));
  const seg = keySegment(shape.name);
  const idKey = JSON.stringify(shape.idField);
  const block = [
    seg,
    idKey,
    shape.idType === 'integer' ? 'i' : 's',
    String(indexed.length),
    ...indexed.flatMap((each) => [each.key, each.seg]),
  ];
  return { shape, seg, idKey, indexed, block };
}

/**
 * Every collection's name, for a message about a limit of the whole store
 * (`pets and categories`): the memory store's words for the same refusal.
 */
export function everyCollection(shapes: readonly CollectionShape[]): string {
  const names = shapes.map((shape) => shape.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

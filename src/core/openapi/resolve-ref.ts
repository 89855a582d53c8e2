import type { OpenAPIV3 } from 'openapi-types';
import { DocumentError } from './document-error.js';

/** A value found in the document, with the JSON pointer where it really lives (after following `$ref`s). */
export interface Located<T> {
  value: T;
  pointer: string;
}

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON pointer of the document, or undefined when there is none. */
export function readPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Follows local `$ref`s (`#/...`) until a non-reference value is reached.
 * Remote references are not supported: a document must be bundled first.
 */
export function resolveRef<T>(
  document: OpenAPIV3.Document,
  value: T | OpenAPIV3.ReferenceObject,
  pointer: string,
): Located<T> {
  const visited = new Set<string>();
  let current: unknown = value;
  let currentPointer = pointer;
  while (typeof current === 'object' && current !== null && '$ref' in current) {
    const ref = (current as OpenAPIV3.ReferenceObject).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) {
      throw new DocumentError(
        `${currentPointer}: only local references ('#/...') are supported, found '${String(ref)}'`,
      );
    }
    if (visited.has(ref)) throw new DocumentError(`${currentPointer}: circular reference '${ref}'`);
    visited.add(ref);
    const target = readPointer(document, ref.slice(1));
    if (target === undefined) throw new DocumentError(`${currentPointer}: unresolved reference '${ref}'`);
    current = target;
    currentPointer = ref.slice(1);
  }
  return { value: current as T, pointer: currentPointer };
}

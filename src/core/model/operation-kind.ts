/**
 * What an operation does to the document's resources, by the shape the
 * document gives it (see describe-api.ts): the mock serves it, the oracle
 * judges it and the contract suite checks it by this kind, never by its name.
 *
 * - `list`: GET on a collection path, answering an array of items;
 * - `read`: GET on an item path (`/collection/{id}`), answering one item;
 * - `create`: POST on a collection path with a body, answering the created item;
 * - `replace`: PUT on an item path with a body: the item's writable fields become the body's;
 * - `update`: PATCH on an item path with a body: the fields it names change;
 * - `delete`: DELETE on an item path: the item is gone;
 * - `other`: anything the model cannot place (named at start-up).
 */
export type OperationKind = 'list' | 'read' | 'create' | 'replace' | 'update' | 'delete' | 'other';

/** The kinds the kit serves statefully: every kind but `other`. */
export type ServableKind = Exclude<OperationKind, 'other'>;

export const operationKinds: readonly OperationKind[] = [
  'list',
  'read',
  'create',
  'replace',
  'update',
  'delete',
  'other',
];

/** The kinds that change what the service holds. */
export const writingKinds: ReadonlySet<OperationKind> = new Set(['create', 'replace', 'update', 'delete']);

/** Methods that only read (RFC 9110 §9.2.1 safe methods): any other may write, whatever the document says. */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request may change what the service holds, by its method alone
 * (RFC 9110 §9.2.1: only GET, HEAD, OPTIONS and TRACE are safe; TRACE is
 * never sent). A read-only contract run sends none of these, with any key.
 */
export function writesByMethod(method: string): boolean {
  return !safeMethods.has(method.toUpperCase());
}

export function isOperationKind(value: unknown): value is OperationKind {
  return typeof value === 'string' && (operationKinds as readonly string[]).includes(value);
}

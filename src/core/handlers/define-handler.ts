import type { operations } from '../../generated/openapi-types.js';
import type { PetStore } from '../store/pet-store.js';
import type { OperationId } from '../types/api-types.js';
import type { Handler, HandlerResponse } from './handler-types.js';

/** What the animals handlers work with. */
export interface PetHandlerContext {
  store: PetStore;
  /** The fields a NewPet may have, read from the document's schema. */
  newPetFields: readonly string[];
}

type Operation<Id extends OperationId> = operations[Id];
type JsonContent<R> = R extends { content: { 'application/json': infer Body } } ? Body : undefined;

/** A validated request of operation `Id`, typed from the generated types. */
export interface TypedRequest<Id extends OperationId> {
  path: NonNullable<Operation<Id>['parameters']['path']>;
  query: NonNullable<Operation<Id>['parameters']['query']>;
  body: JsonContent<NonNullable<Operation<Id>['requestBody']>>;
}

/** Any documented response of operation `Id`: its status and the body the document gives it. */
export type TypedResult<Id extends OperationId> = {
  [Status in keyof Operation<Id>['responses']]: {
    status: Status;
    headers?: Record<string, string>;
    body: JsonContent<Operation<Id>['responses'][Status]>;
    cacheKey?: string;
  };
}[keyof Operation<Id>['responses']];

/**
 * Declares the handler of one operation with the types generated from the
 * document. The pipeline has validated the request against the same document
 * before the handler runs, which is what makes the types true.
 */
export function defineHandler<Id extends OperationId>(
  handle: (request: TypedRequest<Id>, context: PetHandlerContext) => TypedResult<Id>,
): Handler<PetHandlerContext> {
  return (request, context) => handle(request as unknown as TypedRequest<Id>, context) as HandlerResponse;
}

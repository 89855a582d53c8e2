import type { HandlerTable } from './handler-types.js';
import type { PetHandlerContext } from './define-handler.js';
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';

/** The stateful handlers, by the operationId they serve. */
export const petHandlers: HandlerTable<PetHandlerContext> = { listPets, createPet, getPet };

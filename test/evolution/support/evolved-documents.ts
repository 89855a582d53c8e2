import { fileURLToPath } from 'node:url';

/**
 * The documents the kit's behaviour is tried against as the API evolves,
 * besides the kit's own openapi.yaml: one with PUT and DELETE on an animal
 * added (`with-replace-and-delete`), one without getPet, as after its removal
 * (`without-get-pet`), one with a second resource, `/categories`, that an
 * animal's `categoryId` refers to, and PATCH and DELETE on an animal
 * (`with-categories`), and one with `/pets` renamed `/animals` and `petId`
 * renamed `id` (`renamed-to-animals`). Each lives in test/evolution/documents/.
 */
export const evolvedDocuments = [
  'with-replace-and-delete',
  'without-get-pet',
  'with-categories',
  'renamed-to-animals',
] as const;
export type EvolvedDocument = (typeof evolvedDocuments)[number];

export function evolvedDocumentPath(name: EvolvedDocument): string {
  return fileURLToPath(new URL(`../documents/${name}.yaml`, import.meta.url));
}

import { fileURLToPath } from 'node:url';

/**
 * The documents the kit's behaviour is tried against as the API evolves: the
 * kit's own openapi.yaml (`kit`), one with PUT and DELETE on an animal added
 * (`with-replace-and-delete`), and one without getPet, as after its removal
 * (`without-get-pet`). Each lives in test/evolution/documents/.
 */
export const evolvedDocuments = ['with-replace-and-delete', 'without-get-pet'] as const;
export type EvolvedDocument = (typeof evolvedDocuments)[number];

export function evolvedDocumentPath(name: EvolvedDocument): string {
  return fileURLToPath(new URL(`../documents/${name}.yaml`, import.meta.url));
}

// Type-checked inside the folder where the packed petstore-kit was installed, as a browser app is: strict,
// skipLibCheck false, the DOM library and no Node types at all. Every entry a browser uses exports the API's types.
import {
  createMock,
  type ErrorBody,
  type Pet as BrowserPet,
  type PetStatus,
  type components,
} from 'petstore-kit/browser';
import { createMockHandlers, type NewPet, type Pet, type Pets, type paths } from 'petstore-kit/msw';

const handlers = createMockHandlers();
const mock = createMock({ scenario: 'one-of-each-status' });

async function newestSold(): Promise<number> {
  const response = await fetch('/v1/pets?status=sold', { headers: { Authorization: 'Bearer dev-key' } });
  if (!response.ok) throw new Error(((await response.json()) as ErrorBody).message);
  const pets = (await response.json()) as Pets;
  // Ids are numbers as JSON.parse gives them: arithmetic and Math.max compile.
  return Math.max(...pets.map((pet: Pet) => pet.id), 0) - (pets[0]?.id ?? 0);
}

const draft: NewPet = { name: 'Rex', categoryId: 1, status: 'available' satisfies PetStatus };
const shown: BrowserPet = { id: 1, ...draft };
// openapi-typescript's form of the document: what openapi-fetch and openapi-msw take.
const schema: components['schemas']['Pet'] = shown;
type ListQuery = NonNullable<paths['/pets']['get']['parameters']['query']>;
const query: ListQuery = { limit: 5, status: 'sold' };
const starAny = createMockHandlers({ baseUrl: '*/v1' });
export const used = [
  handlers.mock.reset(),
  mock.scenario,
  newestSold,
  shown,
  schema,
  query,
  starAny.mock.faults(),
] as const;

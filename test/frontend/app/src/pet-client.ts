import createClient from 'openapi-fetch';
import type { paths } from 'petstore-kit/msw';

/**
 * The app's API client, typed by the kit's `paths` (openapi.yaml as
 * openapi-typescript writes it): a path, a parameter or a body the API does
 * not have does not compile. `fetch` is looked up at each call rather than
 * when the client is made, so that MSW's `server.listen()` may come later.
 */
export function createPetClient(baseUrl: string, key: string) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${key}` },
    fetch: (request) => globalThis.fetch(request),
  });
}

export type PetClient = ReturnType<typeof createPetClient>;

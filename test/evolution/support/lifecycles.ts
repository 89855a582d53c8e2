import { expect } from 'vitest';
import { defaultDocumentPath } from '../../../src/package-root.js';
import { evolvedDocumentPath } from './evolved-documents.js';

export interface Answer {
  status: number;
  body: unknown;
}
/** Sends one request of the lifecycle (the path below the API's base) and reads its answer. */
export type Send = (method: string, path: string, body?: unknown) => Promise<Answer>;

export const headers = { Authorization: 'Bearer dev-key', 'Content-Type': 'application/json' };

export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Sends with `fetch` (a real socket for the CLI and the proxy, MSW's interception for the handlers). */
export function fetching(base: string, extra: Record<string, string> = {}): Send {
  return async (method, path, body) =>
    answerOf(
      await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...extra },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
}

export const documents = {
  kit: defaultDocumentPath,
  'with-replace-and-delete': evolvedDocumentPath('with-replace-and-delete'),
  'without-get-pet': evolvedDocumentPath('without-get-pet'),
} as const;
export type DocumentName = keyof typeof documents;

/**
 * What each document lets a client do with one pet, from its creation on,
 * and what the kit's mock must answer (its default scenario holds pets 1 to 50).
 */
export const lifecycles: Record<DocumentName, (send: Send) => Promise<void>> = {
  async kit(send) {
    const created = await send('POST', '/pets', { name: 'Rex', categoryId: 2, status: 'pending' });
    expect(created).toEqual({ status: 201, body: { id: 51, name: 'Rex', categoryId: 2, status: 'pending' } });
    expect(await send('GET', '/pets/51')).toEqual({ status: 200, body: created.body });
    expect((await send('GET', '/pets?status=pending&limit=100')).body).toContainEqual(created.body);
    expect((await send('PUT', '/pets/51', { name: 'Rex', categoryId: 2 })).status).toBe(405);
  },
  async 'with-replace-and-delete'(send) {
    const created = await send('POST', '/pets', { name: 'Rex', categoryId: 2, status: 'pending' });
    expect(created.status).toBe(201);
    const replaced = await send('PUT', '/pets/51', { name: 'Rexy', categoryId: 3 });
    // The body's writable fields replace the pet's: a field left out (status) is gone, the id stays.
    expect(replaced).toEqual({ status: 200, body: { id: 51, name: 'Rexy', categoryId: 3 } });
    expect(await send('GET', '/pets/51')).toEqual(replaced);
    expect((await send('GET', '/pets?status=pending&limit=100')).body).not.toContainEqual(created.body);
    expect(await send('DELETE', '/pets/51')).toEqual({ status: 204, body: undefined });
    expect(await send('GET', '/pets/51')).toEqual({
      status: 404,
      body: { code: 'pet_not_found', message: 'no pet has id 51', status: 404 },
    });
    expect((await send('DELETE', '/pets/51')).status).toBe(404);
    expect((await send('PUT', '/pets/51', { name: 'Back', categoryId: 1 })).status).toBe(404);
    expect((await send('PUT', '/pets/1', { name: 'Bad' })).status).toBe(400);
    // A deleted id is never handed out again.
    expect((await send('POST', '/pets', { name: 'Next', categoryId: 1 })).body).toMatchObject({ id: 52 });
  },
  async 'without-get-pet'(send) {
    const created = await send('POST', '/pets', { name: 'Rex', categoryId: 2, status: 'pending' });
    expect(created.status).toBe(201);
    expect((await send('GET', '/pets?status=pending&limit=100')).body).toContainEqual(created.body);
    expect(await send('GET', '/pets/51')).toMatchObject({ status: 404, body: { code: 'route_not_found' } });
  },
};

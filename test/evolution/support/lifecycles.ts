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
  'with-categories': evolvedDocumentPath('with-categories'),
  'renamed-to-animals': evolvedDocumentPath('renamed-to-animals'),
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
  async 'with-categories'(send) {
    const created = await send('POST', '/pets', { name: 'Rex', categoryId: 2, status: 'pending' });
    expect(created).toEqual({ status: 201, body: { id: 51, name: 'Rex', categoryId: 2, status: 'pending' } });
    // A PATCH changes only the fields its body names; null would remove one.
    const patched = await send('PATCH', '/pets/51', { status: 'sold' });
    expect(patched).toEqual({ status: 200, body: { id: 51, name: 'Rex', categoryId: 2, status: 'sold' } });
    expect(await send('GET', '/pets/51')).toEqual(patched);
    expect((await send('PATCH', '/pets/51', { name: 7 })).status).toBe(400);
    expect(await send('DELETE', '/pets/51')).toEqual({ status: 204, body: undefined });
    expect(await send('GET', '/pets/51')).toEqual({
      status: 404,
      body: { code: 'pet_not_found', message: 'no pet has id 51', status: 404 },
    });
    expect((await send('PATCH', '/pets/51', { status: 'sold' })).status).toBe(404);
    // The second resource: its items are served, created and read like the first's, with ids of their own.
    const before = await send('GET', '/categories?limit=100');
    expect(before.status).toBe(200);
    const ids = (before.body as Array<{ id: number }>).map((category) => category.id);
    const next = Math.max(0, ...ids) + 1;
    const category = await send('POST', '/categories', { name: 'Dogs' });
    expect(category).toEqual({ status: 201, body: { id: next, name: 'Dogs' } });
    expect(await send('GET', `/categories/${next}`)).toEqual({ status: 200, body: category.body });
    expect((await send('GET', '/categories?limit=100')).body).toContainEqual(category.body);
    expect(await send('GET', '/categories/999999')).toEqual({
      status: 404,
      body: { code: 'category_not_found', message: 'no category has id 999999', status: 404 },
    });
    expect((await send('POST', '/categories', { title: 'no name' })).status).toBe(400);
  },
  async 'renamed-to-animals'(send) {
    const created = await send('POST', '/animals', { name: 'Rex', categoryId: 2, status: 'pending' });
    expect(created).toEqual({ status: 201, body: { id: 51, name: 'Rex', categoryId: 2, status: 'pending' } });
    expect(await send('GET', '/animals/51')).toEqual({ status: 200, body: created.body });
    expect((await send('GET', '/animals?status=pending&limit=100')).body).toContainEqual(created.body);
    expect(await send('GET', '/animals/424242')).toEqual({
      status: 404,
      body: { code: 'animal_not_found', message: 'no animal has id 424242', status: 404 },
    });
    expect((await send('PUT', '/animals/51', { name: 'Rex', categoryId: 2 })).status).toBe(405);
    expect((await send('GET', '/pets')).status).toBe(404);
  },
  async 'without-get-pet'(send) {
    const created = await send('POST', '/pets', { name: 'Rex', categoryId: 2, status: 'pending' });
    expect(created.status).toBe(201);
    expect((await send('GET', '/pets?status=pending&limit=100')).body).toContainEqual(created.body);
    expect(await send('GET', '/pets/51')).toMatchObject({ status: 404, body: { code: 'route_not_found' } });
  },
};

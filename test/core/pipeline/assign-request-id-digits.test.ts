import { afterAll, describe, expect, it, vi } from 'vitest';

// The random source is found on first use: this file's first id is drawn from known bytes.
let drawn = 0;
const known = (bytes: Uint8Array): void => {
  for (let index = 0; index < bytes.length; index++) bytes[index] = (drawn + index * 37) & 0xff;
  drawn += bytes.length;
};
const builtin = vi
  .spyOn(process, 'getBuiltinModule')
  .mockImplementation(((name: string) => (name === 'node:crypto' ? { randomFillSync: known } : undefined)) as never);
afterAll(() => builtin.mockRestore());

// Fresh modules: another file of the same worker may have found the random source (and drawn ids) already.
vi.resetModules();
const { assignRequestId } = await import('../../../src/core/pipeline/assign-request-id.js');

/** The id of 16 random bytes as RFC 9562 writes it, one digit pair at a time: what the ids must read as. */
function expectedId(bytes: number[]): string {
  const set = [...bytes];
  set[6] = ((set[6] as number) & 0x0f) | 0x40;
  set[8] = ((set[8] as number) & 0x3f) | 0x80;
  const hex = set.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

describe('assignRequestId, from known random bytes', () => {
  it('writes each id as its 16 random bytes in order, with the version and variant bits set, across batches', () => {
    const ids = Array.from({ length: 600 }, () =>
      assignRequestId({ method: 'GET', path: '/', query: '', headers: {} }),
    );
    // The first batch holds 8 ids, each later one 256: the bytes of each were drawn at once.
    const batches = [8, 256, 256, 256];
    const expected: string[] = [];
    let offset = 0;
    for (const size of batches) {
      for (let id = 0; id < size && expected.length < ids.length; id++) {
        expected.push(expectedId(Array.from({ length: 16 }, (_, index) => (offset + (16 * id + index) * 37) & 0xff)));
      }
      offset += 16 * size;
    }
    expect(ids).toEqual(expected);
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseInt64 } from '../../src/core/json/exact-json.js';
import { compareIds } from '../../src/core/store/item-snapshot.js';
import { luaMembers } from '../../src/redis/lua/lua-members.js';
import { luaPrelude } from '../../src/redis/lua/lua-prelude.js';
import { sortMember } from '../../src/redis/sort-member.js';
import { noRedisServer, type RedisServer, startRedisServer } from '../support/redis-server.js';

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(normaliseInt64);
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('sort members', () => {
  it('order integer ids over the whole int64 range as the ids do, at a fixed width', () => {
    fc.assert(
      fc.property(int64, int64, (a, b) => {
        const [ma, mb] = [sortMember(a, 'integer'), sortMember(b, 'integer')];
        expect(ma).toHaveLength(20);
        expect(Math.sign(byteOrder(ma, mb))).toBe(Math.sign(compareIds(a, b)));
      }),
      { numRuns: 2_000 },
    );
    const ends = [-(2n ** 63n), -(2n ** 53n) - 1n, -1n, 0n, 1n, 2n ** 53n + 1n, 2n ** 63n - 1n].map(normaliseInt64);
    expect(ends.map((id) => sortMember(id, 'integer'))).toEqual(
      [...ends.map((id) => sortMember(id, 'integer'))].sort(),
    );
  });

  it('order text ids by UTF-16 code units, as the memory store compares them', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(byteOrder(sortMember(a, 'string'), sortMember(b, 'string')))).toBe(
          Math.sign(compareIds(a, b)),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(noRedisServer !== undefined)('the script’s sort members', () => {
  let server: RedisServer;
  let client: { sendCommand(args: string[]): Promise<unknown>; destroy(): void };

  beforeAll(async () => {
    server = await startRedisServer();
    const { createClient } = await import('@redis/client');
    const connected = createClient({ url: server.url });
    await connected.connect();
    client = connected as unknown as typeof client;
  });
  afterAll(async () => {
    client?.destroy();
    await server?.close();
  });

  it('are the TypeScript ones, for integer and text ids', async () => {
    const script = `local given = ARGV\n${luaPrelude}\n${luaMembers}\nlocal out = {}\nfor i = 1, #given, 2 do\n  if given[i] == 'i' then out[#out + 1] = int_member(given[i + 1]) else out[#out + 1] = text_member(given[i + 1]) end\nend\nreturn out`;
    const ids = fc
      .sample(int64, 300)
      .concat([-(2n ** 63n), 2n ** 63n - 1n, 0, -1, 9007199254740993n].map((each) => normaliseInt64(BigInt(each))));
    const texts = ['1', '42', '0009', '18446744073709551616'];
    const args = [...ids.flatMap((id) => ['i', String(id)]), ...texts.flatMap((text) => ['s', text])];
    const reply = (await client.sendCommand(['EVAL', script, '0', ...args])) as string[];
    expect(reply).toEqual([
      ...ids.map((id) => sortMember(id, 'integer')),
      ...texts.map((text) => sortMember(text, 'string')),
    ]);
  });
});

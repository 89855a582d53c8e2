import { createHash } from 'node:crypto';
import { stringifyJson } from '../core/json/exact-json.js';
import type { Item, ItemId } from '../core/store/item-snapshot.js';
import type { Scenario } from '../core/store/scenario.js';
import type { EngineCollection } from './engine-collection.js';
import type { RedisConnection } from './redis-connection.js';
import { sortMember } from './sort-member.js';

/** The layout of the keys the engine writes: a server holding another layout under the prefix is refused. */
export const keyFormat = '1';

/** Commands of one scenario sent together (pipelined) before waiting for their answers. */
const pipelineDepth = 64;
/** Items per HSET or ZADD. */
const batchSize = 500;

interface ScenarioText {
  digest: string;
  collections: Array<{ collection: EngineCollection; members: string[]; texts: string[]; bytes: number }>;
  bytes: number;
}

/**
 * A scenario's items as the server stores them, and the digest that names
 * them: of the key layout, the scenario's name and each collection's shape
 * and items' exact JSON. Replicas of the same version compute the same
 * digest, so they share one copy; a changed item gives another.
 */
function scenarioText(scenario: Scenario, collections: readonly EngineCollection[]): ScenarioText {
  const hash = createHash('sha256');
  hash.update(`petstore-kit scenario ${keyFormat}\0${scenario.name}\0`);
  let bytes = 0;
  const out: ScenarioText['collections'] = [];
  for (const collection of collections) {
    const { shape } = collection;
    hash.update(`${shape.name}\0${shape.idField}\0${shape.idType}\0${shape.indexed.join('\0')}\0\0`);
    const items = scenario.snapshots.get(shape.name)?.all ?? [];
    const members: string[] = [];
    const texts: string[] = [];
    let collectionBytes = 0;
    for (const item of items) {
      const text = stringifyJson(item);
      members.push(sortMember(item[shape.idField] as ItemId, shape.idType));
      texts.push(text);
      collectionBytes += Buffer.byteLength(text, 'utf8');
      hash.update(text);
      hash.update('\n');
    }
    hash.update('\0');
    bytes += collectionBytes;
    out.push({ collection, members, texts, bytes: collectionBytes });
  }
  return { digest: hash.digest('hex').slice(0, 32), collections: out, bytes };
}

const digests = new WeakMap<Scenario, string>();

/** The digest naming a scenario's content in the server (computed once per scenario object). */
export function scenarioDigest(scenario: Scenario, collections: readonly EngineCollection[]): string {
  let digest = digests.get(scenario);
  if (digest === undefined) {
    digest = scenarioText(scenario, collections).digest;
    digests.set(scenario, digest);
  }
  return digest;
}

async function sendAll(connection: RedisConnection, commands: string[][]): Promise<void> {
  for (let start = 0; start < commands.length; start += pipelineDepth) {
    await Promise.all(commands.slice(start, start + pipelineDepth).map((command) => connection.send(command)));
  }
}

/**
 * Writes a scenario's items under `<prefix>:sc:<digest>` once: read-only
 * from then on, shared by every session (and replica) that loads it, with
 * the list of its keys (`:keys`) that the engine renews the expiry of. Its
 * summary (`complete`, name, bytes, and per collection its count, bytes and
 * highest id as text) is written last, so that a scenario whose writing was
 * cut short is written again rather than used. Returns the digest.
 */
export async function publishScenario(
  connection: RedisConnection,
  prefix: string,
  scenario: Scenario,
  collections: readonly EngineCollection[],
): Promise<string> {
  const known = digests.get(scenario);
  const key = (digest: string): string => `${prefix}:sc:${digest}`;
  if (known !== undefined && (await connection.send(['HGET', key(known), 'complete'])) === '1') return known;
  const text = scenarioText(scenario, collections);
  digests.set(scenario, text.digest);
  const meta = key(text.digest);
  if ((await connection.send(['HGET', meta, 'complete'])) === '1') return text.digest;
  const commands: string[][] = [];
  const summary = ['HSET', meta, 'name', scenario.name, 'bytes', String(text.bytes)];
  for (const { collection, members, texts, bytes } of text.collections) {
    const base = `${meta}:${collection.seg}`;
    const byValue = new Map<string, string[]>();
    for (let start = 0; start < members.length; start += batchSize) {
      const end = Math.min(start + batchSize, members.length);
      const hset = ['HSET', `${base}:items`];
      const zadd = ['ZADD', `${base}:ids`];
      for (let index = start; index < end; index++) {
        const member = members[index] as string;
        hset.push(member, texts[index] as string);
        zadd.push('0', member);
      }
      commands.push(hset, zadd);
    }
    if (collection.indexed.length > 0) {
      const items = scenario.snapshots.get(collection.shape.name)?.all ?? [];
      items.forEach((item: Item, index) => {
        for (const field of collection.indexed) {
          if (!Object.hasOwn(item, field.field) || item[field.field] === undefined) continue;
          const indexKey = `${base}:x:${field.seg}:${stringifyJson(item[field.field])}`;
          let bucket = byValue.get(indexKey);
          if (!bucket) byValue.set(indexKey, (bucket = []));
          bucket.push(members[index] as string);
        }
      });
    }
    for (const [indexKey, bucket] of byValue) {
      for (let start = 0; start < bucket.length; start += batchSize) {
        commands.push(['ZADD', indexKey, ...bucket.slice(start, start + batchSize).flatMap((member) => ['0', member])]);
      }
    }
    summary.push(`n:${collection.seg}`, String(members.length), `b:${collection.seg}`, String(bytes));
    const items = scenario.snapshots.get(collection.shape.name)?.all ?? [];
    const last = items.at(-1);
    if (last !== undefined && collection.shape.idType === 'integer') {
      summary.push(`l:${collection.seg}`, String(last[collection.shape.idField]));
    }
  }
  // The list of its keys, for the engine to renew (or let run out) the expiry of them all at once.
  const keys = [meta, ...new Set(commands.map((command) => command[1] as string))];
  for (let start = 0; start < keys.length; start += batchSize) {
    commands.push(['SADD', `${meta}:keys`, ...keys.slice(start, start + batchSize)]);
  }
  await sendAll(connection, commands);
  summary.push('complete', '1');
  await connection.send(summary);
  return text.digest;
}

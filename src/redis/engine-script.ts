import { createHash } from 'node:crypto';
import { luaFaults } from './lua/lua-faults.js';
import { luaItems } from './lua/lua-items.js';
import { luaJournal } from './lua/lua-journal.js';
import { luaJson } from './lua/lua-json.js';
import { luaMembers } from './lua/lua-members.js';
import { luaOperations } from './lua/lua-operations.js';
import { luaPrelude } from './lua/lua-prelude.js';
import { luaRandom } from './lua/lua-random.js';
import { luaSessions } from './lua/lua-sessions.js';

/** A Lua script as the server knows it: its text, and the SHA-1 `EVALSHA` names it by. */
export interface EngineScript {
  readonly source: string;
  readonly sha1: string;
}

/**
 * The engine's one script: every operation (the per-request call and each
 * control) is a branch of it, chosen by its first argument, so that one
 * `EVALSHA` serves them all and one reload after `NOSCRIPT` (a restarted or
 * flushed server) restores them all. Its parts are joined in the order they
 * use each other.
 */
export const engineScript: EngineScript = (() => {
  const source = [
    luaPrelude,
    luaJson,
    luaMembers,
    luaRandom,
    luaJournal,
    luaSessions,
    luaItems,
    luaFaults,
    luaOperations,
  ].join('\n');
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
})();

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

/** A Lua library as the server knows it: its source, and the one function it registers (`FCALL` calls it). */
export interface EngineLibrary {
  /** What `FUNCTION LOAD` takes: the `#!lua name=…` line, the parts, the registration. */
  readonly source: string;
  /** The library's name, which is also its function's: `petstore_kit_` and 12 hex digits of its code's SHA-1. */
  readonly name: string;
}

/**
 * The engine's library: every operation (the per-request call and each
 * control) is a branch of its one function, chosen by the first argument,
 * so that one `FCALL` serves them all and one `FUNCTION LOAD` after a
 * restarted or flushed server restores them all. A library rather than a
 * script (`EVALSHA`), because a script runs its whole text at every call,
 * making its hundred local functions anew (14 µs of the server's time a
 * call, measured), where a library makes them once, at load. Its name holds
 * its code's hash, so two versions of the kit on one server each keep their own.
 */
export const engineLibrary: EngineLibrary = (() => {
  const body = [
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
  const name = `petstore_kit_${createHash('sha1').update(body).digest('hex').slice(0, 12)}`;
  const call = String.raw`
redis.register_function('${name}', function(keys, args)
  P = keys[1]
  ARGV = args
  argi = 1
  local operation = operations[args[1]]
  if not operation then return redis.error_reply('ERR petstore-kit: unknown operation ' .. tostring(args[1])) end
  return operation()
end)
`;
  return { source: `#!lua name=${name}\n${body}\n${call}`, name };
})();

/**
 * The start of the engine's library: the key prefix and arguments of the
 * call running, the reader of its arguments, and number formatting. Every
 * later part is `local` (Redis refuses globals), defined once when the
 * library is loaded, so the parts are joined in order by engine-script.ts.
 *
 * Numbers: Lua numbers are doubles. Only counts, byte sizes, clock offsets
 * (milliseconds) and draws of the seeded generator (below 2^32) are ever
 * numbers here, all far below 2^53; ids stay decimal text from end to end.
 */
export const luaPrelude = String.raw`
-- Set at the start of every call (see engine-script.ts): the key prefix and the call's arguments.
local P, ARGV
local argi = 1
local function arg()
  argi = argi + 1
  return ARGV[argi]
end
local function num(text)
  if text == nil or text == '' then return nil end
  return tonumber(text)
end
local function fmt(n)
  return string.format('%d', n)
end
local function has(key)
  return redis.call('EXISTS', key) == 1
end
-- One command over a long list of arguments, 'step' at a time in chunks (unpack has a bound).
local function chunked(command, key, list, step)
  local size = 400 * step
  for first = 1, #list, size do
    redis.call(command, key, unpack(list, first, math.min(first + size - 1, #list)))
  end
end
`;

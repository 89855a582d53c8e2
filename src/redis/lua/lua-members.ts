/**
 * Sort members: an id's fixed-width text, so that sorted sets order ids with
 * `ZRANGE … BYLEX` (all scores 0) and never hold an int64 as a score (a
 * double). Built by string operations only; sort-member.ts writes the same
 * in TypeScript, and the tests hold the two to each other.
 *
 * - integer ids: `1` and the value in 19 digits for 0 and above; `0` and the
 *   nines' complement of the magnitude's 19 digits below 0, so that a larger
 *   magnitude sorts first;
 * - text ids: each UTF-16 code unit as four hex digits, the order of
 *   JavaScript's `<` (the store only makes decimal text ids, ASCII).
 */
export const luaMembers = String.raw`
local complement = { ['0'] = '9', ['1'] = '8', ['2'] = '7', ['3'] = '6', ['4'] = '5',
  ['5'] = '4', ['6'] = '3', ['7'] = '2', ['8'] = '1', ['9'] = '0' }

local function int_member(text)
  if string.sub(text, 1, 1) == '-' then
    local digits = string.sub(text, 2)
    digits = string.rep('0', 19 - #digits) .. digits
    return '0' .. (string.gsub(digits, '%d', complement))
  end
  return '1' .. string.rep('0', 19 - #text) .. text
end

local function text_member(text)
  return (string.gsub(text, '.', function(c) return string.format('%04x', string.byte(c)) end))
end

-- Whether member a sorts before member b, byte by byte (Lua's < follows the server's locale).
local function before(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local ca, cb = string.byte(a, i), string.byte(b, i)
    if ca ~= cb then return ca < cb end
  end
  return #a < #b
end
`;

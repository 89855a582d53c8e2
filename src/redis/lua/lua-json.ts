/**
 * Reading and writing an item's JSON text without decoding a value: the
 * store never parses numbers (cjson reads doubles), it moves the exact text
 * of each top-level member. Items are written by the kit's exact JSON writer
 * (no white space), but white space is skipped anyway.
 */
export const luaJson = String.raw`
local function str_end(t, i)
  local j = i + 1
  while true do
    local k = string.find(t, '["\\]', j)
    if not k then return #t end
    if string.byte(t, k) == 92 then j = k + 2 else return k end
  end
end

local function value_end(t, i)
  local c = string.byte(t, i)
  if c == 34 then return str_end(t, i) end
  if c == 123 or c == 91 then
    local depth = 0
    local j = i
    while true do
      local k = string.find(t, '[%[%]{}"]', j)
      if not k then return #t end
      local ck = string.byte(t, k)
      if ck == 34 then
        j = str_end(t, k) + 1
      else
        if ck == 123 or ck == 91 then depth = depth + 1 else depth = depth - 1 end
        if depth == 0 then return k end
        j = k + 1
      end
    end
  end
  local k = string.find(t, '[,}%]%s]', i)
  return (k or (#t + 1)) - 1
end

local function skip_ws(t, i)
  return string.find(t, '[^ \t\r\n]', i) or (#t + 1)
end

-- The members of a JSON object, in order: { key text (quoted, as written), value text }.
local function members_of(t)
  local out = {}
  local i = skip_ws(t, 2)
  local n = #t
  while i <= n do
    local c = string.byte(t, i)
    if c == 125 then break end
    if c == 44 then i = skip_ws(t, i + 1) end
    local ke = str_end(t, i)
    local key = string.sub(t, i, ke)
    i = skip_ws(t, ke + 1)
    i = skip_ws(t, i + 1)
    local ve = value_end(t, i)
    out[#out + 1] = { key, string.sub(t, i, ve) }
    i = skip_ws(t, ve + 1)
  end
  return out
end

local function member_map(t)
  local map = {}
  for _, pair in ipairs(members_of(t)) do map[pair[1]] = pair[2] end
  return map
end

-- A key JavaScript orders first (an array index, "0" to "4294967294"), as its number; nil otherwise.
local function index_key(k)
  local d = string.match(k, '^"(%d+)"$')
  if not d or #d > 10 or (#d > 1 and string.sub(d, 1, 1) == '0') then return nil end
  local n = tonumber(d)
  if n > 4294967294 then return nil end
  return n
end

-- An object's text from its members in the order a JavaScript object holds them once built as
-- { [idField]: id, ...fields }: array-index keys first, ascending, then the id, then the rest in order.
local function object_text(members, idKey)
  local ints, rest = {}, {}
  local id
  for _, m in ipairs(members) do
    local n = index_key(m[1])
    if n then
      ints[#ints + 1] = { n, m }
    elseif m[1] == idKey then
      id = m
    else
      rest[#rest + 1] = m
    end
  end
  table.sort(ints, function(a, b) return a[1] < b[1] end)
  local parts = {}
  for _, e in ipairs(ints) do parts[#parts + 1] = e[2][1] .. ':' .. e[2][2] end
  if id then parts[#parts + 1] = id[1] .. ':' .. id[2] end
  for _, m in ipairs(rest) do parts[#parts + 1] = m[1] .. ':' .. m[2] end
  return '{' .. table.concat(parts, ',') .. '}'
end

-- A merge patch of top-level members (RFC 7396 at the top level, as the memory store applies it):
-- each { key text, value text } sets that member; an empty value text removes it.
local function merged_text(current, patch, idKey)
  local members = members_of(current)
  for _, p in ipairs(patch) do
    local at
    for i, m in ipairs(members) do
      if m[1] == p[1] then at = i break end
    end
    if p[2] == '' then
      if at then table.remove(members, at) end
    elseif at then
      members[at][2] = p[2]
    else
      members[#members + 1] = { p[1], p[2] }
    end
  end
  return object_text(members, idKey)
end
`;

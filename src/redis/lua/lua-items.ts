/**
 * One collection of a session's store, as the memory store keeps it
 * (item-collection.ts): the scenario's items, shared and read-only
 * (`sc:<digest>:<collection>:items`, `:ids`, `:x:<field>:<value>`), and the
 * session's own changes beside them (`s:<session>:<collection>:own`, `:ids`,
 * `:x:…`, and `:hid`, the scenario ids it replaced or deleted). Ids come from
 * `:next`, a counter started at the scenario's highest id and read back as
 * text after INCR (Redis does the int64 arithmetic, exactly; Lua never
 * holds an id as a number). A list merges the scenario's and the session's
 * sorted members in id order, skips hidden ids, and stops at its limit.
 */
export const luaItems = String.raw`
-- The collection block: its key segment, its id field's key text, its id type, its indexed fields.
local function collection_args()
  local c = { seg = arg(), idKey = arg(), idType = arg(), indexed = {} }
  local n = tonumber(arg())
  for i = 1, n do c.indexed[i] = { key = arg(), seg = arg() } end
  return c
end

local function own_key(S, c, part)
  return S.key .. ':' .. c.seg .. ':' .. part
end

local function base_key(S, c, part)
  return P .. ':sc:' .. S.scn .. ':' .. c.seg .. ':' .. part
end

local function remember(S, key)
  redis.call('SADD', S.key .. ':keys', key)
end

local function base_count(S, c)
  return tonumber(redis.call('HGET', scenario_key(S.scn), 'n:' .. c.seg) or '0')
end

local function size(S, c)
  return base_count(S, c) - redis.call('SCARD', own_key(S, c, 'hid')) + redis.call('HLEN', own_key(S, c, 'own'))
end

-- The item with that member: its text and whether it is the session's own; nil when there is none.
local function find(S, c, m)
  local text = redis.call('HGET', own_key(S, c, 'own'), m)
  if text then return text, true end
  if redis.call('SISMEMBER', own_key(S, c, 'hid'), m) == 1 then return nil end
  text = redis.call('HGET', base_key(S, c, 'items'), m)
  if text then return text, false end
  return nil
end

local function index_own(S, c, m, text, add)
  if #c.indexed == 0 then return end
  local map = member_map(text)
  for _, f in ipairs(c.indexed) do
    local v = map[f.key]
    if v then
      local k = own_key(S, c, 'x:' .. f.seg .. ':' .. v)
      if add then
        redis.call('ZADD', k, 0, m)
        remember(S, k)
      else
        redis.call('ZREM', k, m)
      end
    end
  end
end

local function charge(S, delta)
  if delta == 0 then return end
  redis.call('HINCRBY', S.key, 'own', delta)
  redis.call('INCRBY', P .. ':charged', delta)
  S.own = S.own + delta
end

local function hide(S, c, m, text)
  local k = own_key(S, c, 'hid')
  redis.call('SADD', k, m)
  remember(S, k)
  redis.call('HINCRBY', S.key, 'hid', #text)
  S.hid = S.hid + #text
end

-- Puts an item in place of 'old' (the item that had its id, own or the scenario's) or as a new one.
local function put(S, c, m, text, old, oldOwn)
  local delta = #text
  if old and oldOwn then
    index_own(S, c, m, old, false)
    delta = delta - #old
  elseif old then
    hide(S, c, m, old)
  end
  local ownKey, idsKey = own_key(S, c, 'own'), own_key(S, c, 'ids')
  redis.call('HSET', ownKey, m, text)
  redis.call('ZADD', idsKey, 0, m)
  remember(S, ownKey)
  remember(S, idsKey)
  index_own(S, c, m, text, true)
  charge(S, delta)
  changed(S)
end

local function remove(S, c, m, old, oldOwn)
  if oldOwn then
    redis.call('HDEL', own_key(S, c, 'own'), m)
    redis.call('ZREM', own_key(S, c, 'ids'), m)
    index_own(S, c, m, old, false)
    charge(S, -#old)
  else
    hide(S, c, m, old)
  end
  changed(S)
end

-- A refusal when the store would hold more than its bytes, or the mock more than its budget.
local function refuse_bytes(S, c, wanted, added)
  if S.maxBytes and wanted > S.maxBytes then
    return { 'full_store', fmt(S.maxBytes), fmt(wanted), c.seg }
  end
  if S.maxTotal then
    local total = tonumber(redis.call('GET', P .. ':charged') or '0') + added
    if total > S.maxTotal then return { 'full_mock', fmt(S.maxTotal), fmt(total), c.seg } end
  end
  return nil
end

-- Stores a new item: 'template' is its JSON text with a NUL byte where the id goes.
local function create_item(S, c, template)
  local count = size(S, c)
  if S.maxItems and count + 1 > S.maxItems then
    return { 'full_items', fmt(S.maxItems), fmt(count + 1), c.seg }
  end
  local nextKey = own_key(S, c, 'next')
  local before = redis.call('GET', nextKey)
  if not before then
    if c.idType == 'i' then
      before = redis.call('HGET', scenario_key(S.scn), 'l:' .. c.seg) or '0'
    else
      before = fmt(base_count(S, c))
    end
    redis.call('SET', nextKey, before)
    remember(S, nextKey)
  end
  local idText, m
  while true do
    local ok = pcall(redis.call, 'INCR', nextKey)
    if not ok then
      redis.call('SET', nextKey, before)
      return { 'id_exhausted', before }
    end
    idText = redis.call('GET', nextKey)
    if c.idType == 'i' then
      m = int_member(idText)
      break
    end
    m = text_member(idText)
    if not find(S, c, m) then break end
  end
  local at = string.find(template, '\0', 1, true)
  local idJson = idText
  if c.idType ~= 'i' then idJson = '"' .. idText .. '"' end
  local text = string.sub(template, 1, at - 1) .. idJson .. string.sub(template, at + 1)
  local refused = refuse_bytes(S, c, store_bytes(S) + #text, #text)
  if refused then
    redis.call('SET', nextKey, before)
    return refused
  end
  put(S, c, m, text, nil, false)
  return { 'ok', text }
end

local function replace_with(S, c, m, text, old, oldOwn)
  local grows = #text - #old
  local refused = refuse_bytes(S, c, store_bytes(S) + grows, math.max(0, grows))
  if refused then return refused end
  put(S, c, m, text, old, oldOwn)
  return { 'ok', text }
end

local function replace_item(S, c, m, text)
  local old, oldOwn = find(S, c, m)
  if not old then return { 'ok', false } end
  return replace_with(S, c, m, text, old, oldOwn)
end

local function update_item(S, c, m, patch)
  local old, oldOwn = find(S, c, m)
  if not old then return { 'ok', false } end
  return replace_with(S, c, m, merged_text(old, patch, c.idKey), old, oldOwn)
end

local function delete_item(S, c, m)
  local old, oldOwn = find(S, c, m)
  if not old then return { 'ok', '0' } end
  remove(S, c, m, old, oldOwn)
  return { 'ok', '1', old }
end

-- A sorted set read in member order, a chunk at a time; with 'hidKey', each chunk's members are
-- looked up in that set at once (SMISMEMBER), for a list to skip the scenario ids a session hid.
local function cursor(key, chunk, hidKey)
  return { key = key, chunk = chunk, hidKey = hidKey, buf = {}, hidden = nil, pos = 1, last = nil, done = false }
end

local function peek(cur)
  if cur.pos > #cur.buf then
    if cur.done then return nil end
    local from = '-'
    if cur.last then from = '(' .. cur.last end
    cur.buf = redis.call('ZRANGE', cur.key, from, '+', 'BYLEX', 'LIMIT', 0, cur.chunk)
    cur.pos = 1
    if #cur.buf < cur.chunk then cur.done = true end
    if #cur.buf == 0 then return nil end
    cur.last = cur.buf[#cur.buf]
    if cur.hidKey then cur.hidden = redis.call('SMISMEMBER', cur.hidKey, unpack(cur.buf)) end
  end
  return cur.buf[cur.pos]
end

-- The items of many members, with HMGET 500 at a time (unpack has a bound).
local function read_items(key, members)
  if #members <= 500 then return redis.call('HMGET', key, unpack(members)) end
  local out = {}
  for start = 1, #members, 500 do
    local got = redis.call('HMGET', key, unpack(members, start, math.min(start + 499, #members)))
    for _, text in ipairs(got) do out[#out + 1] = text end
  end
  return out
end

local function matches(text, checks)
  if #checks == 0 then return true end
  local map = member_map(text)
  for _, f in ipairs(checks) do
    if map[f.key] ~= f.value then return false end
  end
  return true
end

-- The first 'limit' items in ascending id order whose members equal every filter's value text.
-- Each filter: { key = key text, seg = index segment or '' (no index), value = value text }.
local function list_items(S, c, limit, filters)
  local page = {}
  if limit <= 0 then return page end
  local baseIds, ownIds = base_key(S, c, 'ids'), own_key(S, c, 'ids')
  local used, best = 0, nil
  for i, f in ipairs(filters) do
    if f.seg ~= '' then
      local part = 'x:' .. f.seg .. ':' .. f.value
      local bk, ok = base_key(S, c, part), own_key(S, c, part)
      local n = redis.call('ZCARD', bk) + redis.call('ZCARD', ok)
      if not best or n < best then
        best, baseIds, ownIds, used = n, bk, ok, i
      end
    end
  end
  local checks = {}
  for i, f in ipairs(filters) do
    if i ~= used then checks[#checks + 1] = f end
  end
  local chunk = math.min(limit + 16, 1000)
  local hidKey = own_key(S, c, 'hid')
  local b, o = cursor(baseIds, chunk, has(hidKey) and hidKey or nil), cursor(ownIds, chunk)
  local ownItems, baseItems = own_key(S, c, 'own'), base_key(S, c, 'items')
  -- Without further filters every member taken is on the page: take them first, then read their
  -- items with one HMGET per source. With filters, each item is read to be checked.
  local fromBase, fromOwn, order = {}, {}, {}
  while #page + #order < limit do
    local bm, om = peek(b), peek(o)
    if not bm and not om then break end
    local source, m
    if om == nil or (bm ~= nil and before(bm, om)) then
      if not (b.hidden and b.hidden[b.pos] == 1) then source, m = fromBase, bm end
      b.pos = b.pos + 1
    else
      o.pos = o.pos + 1
      source, m = fromOwn, om
    end
    if m then
      if #checks == 0 then
        source[#source + 1] = m
        order[#order + 1] = source
      else
        local text = redis.call('HGET', source == fromBase and baseItems or ownItems, m)
        if text and matches(text, checks) then page[#page + 1] = text end
      end
    end
  end
  if #order == 0 then return page end
  local baseTexts, ownTexts = {}, {}
  if #fromBase > 0 then baseTexts = read_items(baseItems, fromBase) end
  if #fromOwn > 0 then ownTexts = read_items(ownItems, fromOwn) end
  local nb, no = 0, 0
  for _, source in ipairs(order) do
    local text
    if source == fromBase then
      nb = nb + 1
      text = baseTexts[nb]
    else
      no = no + 1
      text = ownTexts[no]
    end
    if text then page[#page + 1] = text end
  end
  return page
end

local function filter_args()
  local filters = {}
  local n = tonumber(arg())
  for i = 1, n do filters[i] = { key = arg(), seg = arg(), value = arg() } end
  return filters
end

-- Does every item a write refers to exist? The index of the first missing one, or nil.
local function missing_reference(S, requirements)
  for i, r in ipairs(requirements) do
    if not find(S, { seg = r.seg }, r.member) then return i end
  end
  return nil
end

-- Runs one store action read from the arguments: { 'ok', … } or a refusal.
local function store_action(S, kind)
  local c = collection_args()
  local requirements = {}
  local n = tonumber(arg())
  for i = 1, n do requirements[i] = { seg = arg(), member = arg() } end
  if kind == 'list' then
    local limit = tonumber(arg())
    local page = list_items(S, c, limit, filter_args())
    table.insert(page, 1, 'ok')
    return page
  end
  local m = arg()
  if kind == 'get' then
    local text = find(S, c, m)
    return { 'ok', text or false }
  end
  if n > 0 then
    local missing = missing_reference(S, requirements)
    if missing then return { 'missing_reference', fmt(missing) } end
  end
  if kind == 'create' then return create_item(S, c, m) end
  if kind == 'replace' then return replace_item(S, c, m, arg()) end
  if kind == 'update' then
    local patch = {}
    local count = tonumber(arg())
    for i = 1, count do patch[i] = { arg(), arg() } end
    return update_item(S, c, m, patch)
  end
  if kind == 'delete' then return delete_item(S, c, m) end
  return redis.error_reply('ERR unknown store action ' .. tostring(kind))
end
`;

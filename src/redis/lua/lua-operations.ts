/**
 * The operations of the engine's one function, chosen by its first argument:
 * `request` (the per-request call: session, latency draw, fault, sunset and
 * store action in one atomic step), then the admin and in-process controls.
 * Every answer is an array whose first element says what happened; a
 * control's second is the session its call evicted to make room (or empty).
 */
export const luaOperations = String.raw`
local function collections_args()
  local list = {}
  local n = tonumber(arg())
  for i = 1, n do list[i] = { seg = arg() } end
  return list
end

-- What a session holds, for listings: name, scenario, changed?, journal size, faults, latency,
-- clock offset, then each collection's size.
local function session_info(S, collections)
  local out = { S.name, S.scnName, '0',
    fmt(redis.call('LLEN', S.key .. ':jl')), fmt(redis.call('LLEN', S.key .. ':f')),
    S.lmin, S.lmax, S.off }
  local copied = false
  for _, c in ipairs(collections) do
    local hidden = redis.call('SCARD', own_key(S, c, 'hid'))
    local own = redis.call('HLEN', own_key(S, c, 'own'))
    if hidden > 0 or own > 0 then copied = true end
    out[#out + 1] = fmt(base_count(S, c) - hidden + own)
  end
  if copied then out[3] = '1' end
  return out
end

local function with_session(S, f)
  local t = touch(S)
  if t == nil then return { 'no_session' } end
  if t ~= true then return t end
  local out = f()
  save_session(S)
  table.insert(out, 2, S.evicted or '')
  return out
end

local function op_request()
  local S = session_args()
  local operationId, useLatency, sunset, now, kind = arg(), arg() == '1', num(arg()), tonumber(arg()), arg()
  local known = arg()
  local t = touch(S)
  if t == nil then return { 'no_session' } end
  if t ~= true then return t end
  local drawn = ''
  if useLatency and tonumber(S.lmax) > 0 then drawn = fmt(draw(S)) end
  local head = { 'ok', S.lmin, S.lmax, drawn, S.off, S.evicted or '', S.scnName, revision(S) }
  local id, spec, left, source
  if operationId ~= '' then id, spec, left, source = take_fault(S, operationId) end
  if id then
    head[1] = 'fault'
    head[9], head[10], head[11], head[12] = id, spec, left, source
  elseif sunset and now + tonumber(S.off) >= sunset then
    head[1] = 'removed'
  elseif known ~= '' and known == head[8] then
    -- A read whose answer the replica holds at the store's revision: no items sent back.
    head[1] = 'answered'
  elseif kind ~= '' then
    local result = store_action(S, kind)
    head[1] = result[1]
    for i = 2, #result do head[7 + i] = result[i] end
  end
  save_session(S)
  return head
end

local function op_view()
  local S = session_args()
  return with_session(S, function()
    local c = collection_args()
    local limit = tonumber(arg())
    local page = list_items(S, c, limit, filter_args())
    table.insert(page, 1, fmt(size(S, c)))
    table.insert(page, 1, S.scnName)
    table.insert(page, 1, 'ok')
    return page
  end)
end

local function op_info()
  local S = session_args()
  local collections = collections_args()
  return with_session(S, function()
    local out = session_info(S, collections)
    table.insert(out, 1, 'ok')
    return out
  end)
end

local function op_sessions()
  local S = session_args()
  local collections = collections_args()
  local t = touch(S)
  if t ~= true then return t or { 'no_session' } end
  sweep_idle(S)
  local out = { 'ok', S.evicted or '', fmt(#collections + 8) }
  local function add(info) for _, v in ipairs(info) do out[#out + 1] = v end end
  add(session_info(S, collections))
  for _, seg in ipairs(redis.call('ZRANGE', P .. ':sessions', 0, -1)) do
    local other = { seg = seg, key = P .. ':s:' .. seg }
    load_session(other)
    if not load_scenario(other) then other.scnName = '' end
    add(session_info(other, collections))
  end
  return out
end

local function op_drop()
  local seg = arg()
  if not has(P .. ':s:' .. seg) then return { 'ok', '0' } end
  drop_session(seg)
  return { 'ok', '1' }
end

local function op_latency()
  local S = session_args()
  local lmin, lmax = arg(), arg()
  return with_session(S, function()
    redis.call('HSET', S.key, 'lmin', lmin, 'lmax', lmax)
    return { 'ok' }
  end)
end

local function op_clock()
  local S = session_args()
  local off = arg()
  return with_session(S, function()
    redis.call('HSET', S.key, 'off', off)
    return { 'ok' }
  end)
end

local function op_fault_add()
  local S = session_args()
  local max, spec, operationId, chance, times, source = tonumber(arg()), arg(), arg(), arg(), arg(), arg()
  return with_session(S, function() return add_fault(S, max, spec, operationId, chance, times, source) end)
end

local function op_fault_list()
  local S = session_args()
  return with_session(S, function() return list_faults(S) end)
end

local function op_fault_clear()
  local S = session_args()
  return with_session(S, function() return { 'ok', fmt(clear_faults(S)) } end)
end

local function op_switch()
  local S = session_args()
  local digest = arg()
  local collections = collections_args()
  return with_session(S, function()
    local meta = redis.call('HMGET', scenario_key(digest), 'complete', 'bytes')
    if meta[1] ~= '1' then return { 'scenario_missing', digest } end
    for _, c in ipairs(collections) do
      local n = tonumber(redis.call('HGET', scenario_key(digest), 'n:' .. c.seg) or '0')
      if S.maxItems and n > S.maxItems then return { 'full_items', fmt(S.maxItems), fmt(n), c.seg } end
    end
    local bytes = tonumber(meta[2])
    if S.maxBytes and bytes > S.maxBytes then
      return { 'full_store', fmt(S.maxBytes), fmt(bytes), collections[1].seg }
    end
    clear_store(S)
    redis.call('HSET', S.key, 'scn', digest)
    S.scn = digest
    load_scenario(S)
    local out = session_info(S, collections)
    table.insert(out, 1, 'ok')
    return out
  end)
end

local function op_reset()
  local S = session_args()
  local collections = collections_args()
  return with_session(S, function()
    clear_store(S)
    clear_faults(S)
    journal_clear(S.seg)
    local start = redis.call('HMGET', S.key, 'start', 'slmin', 'slmax', 'soff', 'seed')
    redis.call('HSET', S.key, 'scn', start[1], 'lmin', start[2], 'lmax', start[3], 'off', start[4],
      'rng', start[5], 'fid', '0')
    S.drew = false
    load_session(S)
    if not load_scenario(S) then return { 'scenario_missing', S.scn } end
    local out = session_info(S, collections)
    table.insert(out, 1, 'ok')
    return out
  end)
end

-- Entries of any sessions, in the order they were recorded (a replica sends those of one turn of its
-- event loop together): each one's session, bytes and fields. An entry of a session that is gone is
-- left out. What the entries cost in counters (the mock's order, bytes, each journal's bytes and
-- drops) is written once for the call, not once an entry. The answer: each entry's stream id, or ''.
local function op_journal_append()
  local capacity, max, count = tonumber(arg()), tonumber(arg()), tonumber(arg())
  local out = { 'ok' }
  local sessions, order = {}, {}
  local zadd, zrem = {}, {}
  local total = 0
  local seq = redis.call('INCRBY', P .. ':jseq', count) - count
  for e = 1, count do
    local seg, bytes, n = arg(), tonumber(arg()), tonumber(arg())
    local fields = {}
    for i = 1, n do fields[i] = arg() end
    local s = sessions[seg]
    if not s then
      local key, j, jl = journal_keys(seg)
      s = { key = key, j = j, jl = jl, live = has(key), jb = 0, jd = 0, xdel = {} }
      if s.live then s.len = redis.call('LLEN', jl) end
      sessions[seg] = s
      order[#order + 1] = seg
    end
    if s.live then
      while s.len >= capacity do
        local id, size = string.match(redis.call('LPOP', s.jl), '^(%S+) (%d+)$')
        s.xdel[#s.xdel + 1] = id
        zrem[#zrem + 1] = seg .. ' ' .. id
        s.jb = s.jb - tonumber(size)
        s.jd = s.jd + 1
        s.len = s.len - 1
        total = total - tonumber(size)
      end
      local id = redis.call('XADD', s.j, '*', unpack(fields))
      redis.call('RPUSH', s.jl, id .. ' ' .. fmt(bytes))
      s.len = s.len + 1
      seq = seq + 1
      zadd[#zadd + 1] = seq
      zadd[#zadd + 1] = seg .. ' ' .. id
      s.jb = s.jb + bytes
      total = total + bytes
      out[#out + 1] = id
    else
      out[#out + 1] = ''
    end
  end
  -- Added first, then removed: an entry added and dropped in the same call leaves the order too.
  chunked('ZADD', P .. ':jorder', zadd, 2)
  chunked('ZREM', P .. ':jorder', zrem, 1)
  for _, seg in ipairs(order) do
    local s = sessions[seg]
    chunked('XDEL', s.j, s.xdel, 1)
    if s.jb ~= 0 then redis.call('HINCRBY', s.key, 'jb', s.jb) end
    if s.jd ~= 0 then redis.call('HINCRBY', s.key, 'jd', s.jd) end
  end
  if total ~= 0 then redis.call('INCRBY', P .. ':jbytes', total) end
  journal_fit(max)
  return out
end

local function op_journal_read()
  local S = session_args()
  local maxRead = tonumber(arg())
  return with_session(S, function()
    local records = redis.call('LRANGE', S.key .. ':jl', 0, -1)
    local kept, bytes, first = 0, 0, nil
    for i = #records, 1, -1 do
      local id, size = string.match(records[i], '^(%S+) (%d+)$')
      if kept > 0 and bytes + tonumber(size) > maxRead then break end
      kept = kept + 1
      bytes = bytes + tonumber(size)
      first = id
    end
    local out = { 'ok', redis.call('HGET', S.key, 'jd') or '0', fmt(#records - kept) }
    if first then
      for _, entry in ipairs(redis.call('XRANGE', S.key .. ':j', first, '+')) do out[#out + 1] = entry end
    end
    return out
  end)
end

local function op_journal_clear()
  local S = session_args()
  return with_session(S, function() return { 'ok', fmt(journal_clear(S.seg)) } end)
end

-- Renews the expiry of every scenario a session stands on or goes back to at a reset, and of the
-- scenarios named (a replica's starting one, one just written): a scenario nobody uses any more is
-- not renewed, and the server drops it when its time runs out. Every key of a scenario gets the same
-- expiry in this one call, so none goes before the others. A scenario written without its list of
-- keys (by a kit from before) is left as it is.
local function op_scenario_keep()
  local ms = arg()
  local default_seg = arg()
  local digests = {}
  for i = 1, tonumber(arg()) do digests[arg()] = true end
  local function stands(seg)
    local got = redis.call('HMGET', P .. ':s:' .. seg, 'scn', 'start')
    if got[1] then digests[got[1]] = true end
    if got[2] then digests[got[2]] = true end
  end
  stands(default_seg)
  for _, seg in ipairs(redis.call('ZRANGE', P .. ':sessions', 0, -1)) do stands(seg) end
  local kept = 0
  for digest in pairs(digests) do
    local meta = scenario_key(digest)
    local list = meta .. ':keys'
    if has(list) then
      for _, k in ipairs(redis.call('SMEMBERS', list)) do redis.call('PEXPIRE', k, ms) end
      redis.call('PEXPIRE', list, ms)
      redis.call('PEXPIRE', meta, ms)
      kept = kept + 1
    end
  end
  return { 'ok', fmt(kept) }
end

local operations = {
  request = op_request, view = op_view, info = op_info, sessions = op_sessions, drop = op_drop,
  latency = op_latency, clock = op_clock, fault_add = op_fault_add, fault_list = op_fault_list,
  fault_clear = op_fault_clear, switch = op_switch, reset = op_reset,
  journal_append = op_journal_append, journal_read = op_journal_read, journal_clear = op_journal_clear,
  scenario_keep = op_scenario_keep,
}
`;

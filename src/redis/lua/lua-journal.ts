/**
 * The request journal: one stream per session (`s:<session>:j`), its
 * entries' ids and sizes in order beside it (`s:<session>:jl`, "id bytes"),
 * and the mock's order of every entry (`jorder`, scored by `jseq`) with
 * their bytes together (`jbytes`), for the byte budget every journal shares:
 * beyond it, the oldest entries of the whole mock make room, counted in
 * their journal's `dropped` (`jd`), as JournalBudget does in memory.
 */
export const luaJournal = String.raw`
local function journal_keys(seg)
  local key = P .. ':s:' .. seg
  return key, key .. ':j', key .. ':jl'
end

-- Takes out one entry of a session's journal ("id bytes" from its list): stream, mock order, bytes.
local function journal_release(seg, record, counted)
  local key, j = journal_keys(seg)
  local id, bytes = string.match(record, '^(%S+) (%d+)$')
  redis.call('XDEL', j, id)
  redis.call('ZREM', P .. ':jorder', seg .. ' ' .. id)
  redis.call('DECRBY', P .. ':jbytes', bytes)
  redis.call('HINCRBY', key, 'jb', -tonumber(bytes))
  if counted then redis.call('HINCRBY', key, 'jd', 1) end
end

-- Empties a session's journal; the number of entries it held.
local function journal_clear(seg)
  local key, j, jl = journal_keys(seg)
  local records = redis.call('LRANGE', jl, 0, -1)
  for _, record in ipairs(records) do
    local id = string.match(record, '^(%S+) ')
    redis.call('ZREM', P .. ':jorder', seg .. ' ' .. id)
  end
  local bytes = tonumber(redis.call('HGET', key, 'jb') or '0')
  if bytes ~= 0 then redis.call('DECRBY', P .. ':jbytes', bytes) end
  redis.call('DEL', j, jl)
  if has(key) then redis.call('HSET', key, 'jb', '0', 'jd', '0') end
  return #records
end

-- Appends an entry (field, value pairs) of 'bytes' to a session's journal of at most 'capacity'
-- entries; the mock's budget is held once a call's entries are in (journal_fit).
local function journal_add(seg, fields, bytes, capacity)
  local key, j, jl = journal_keys(seg)
  while redis.call('LLEN', jl) >= capacity do
    journal_release(seg, redis.call('LPOP', jl), true)
  end
  local id = redis.call('XADD', j, '*', unpack(fields))
  redis.call('RPUSH', jl, id .. ' ' .. fmt(bytes))
  redis.call('ZADD', P .. ':jorder', redis.call('INCR', P .. ':jseq'), seg .. ' ' .. id)
  redis.call('INCRBY', P .. ':jbytes', bytes)
  redis.call('HINCRBY', key, 'jb', bytes)
  return id
end

-- Makes room in the mock's budget of 'max' bytes, the oldest entries of every journal first.
local function journal_fit(max)
  while tonumber(redis.call('GET', P .. ':jbytes') or '0') > max do
    local oldest = redis.call('ZPOPMIN', P .. ':jorder')
    if #oldest == 0 then break end
    local other, oldId = string.match(oldest[1], '^(%S+) (%S+)$')
    local _, _, otherList = journal_keys(other)
    -- A journal's oldest entry is the oldest of the mock's that is in it.
    local record = redis.call('LPOP', otherList)
    if record and string.match(record, '^(%S+) ') ~= oldId then
      redis.call('LPUSH', otherList, record)
      record = nil
      for _, each in ipairs(redis.call('LRANGE', otherList, 0, -1)) do
        if string.match(each, '^(%S+) ') == oldId then record = each break end
      end
      if record then redis.call('LREM', otherList, 1, record) end
    end
    if record then journal_release(other, record, true) end
  end
end
`;

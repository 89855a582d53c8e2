/**
 * A session's scheduled faults: their ids in order (`s:<session>:f`, a
 * list) and, in `s:<session>:fs`, each one's request as JSON (`<id>`, what
 * a listing returns), its operation (`o<id>`), chance (`p<id>`, as the
 * client wrote the number) and the requests it still hits (`n<id>`; none for
 * a fault with a chance and no count) and who scheduled it (`s<id>`, which a
 * listing does not show). Taking one is part of the request's
 * one script, so a fault for N requests is taken exactly N times, whichever
 * replicas serve them.
 */
export const luaFaults = String.raw`
local function fault_keys(S)
  return S.key .. ':f', S.key .. ':fs'
end

-- The first fault this operation's request gets, as FaultPlan.take does: { id, request JSON, times left, source }.
local function take_fault(S, operationId)
  local listKey, specKey = fault_keys(S)
  local ids = redis.call('LRANGE', listKey, 0, -1)
  for _, id in ipairs(ids) do
    local got = redis.call('HMGET', specKey, 'o' .. id, 'p' .. id, 'n' .. id, id, 's' .. id)
    local op, chance, times, spec, source = got[1], got[2], got[3], got[4], got[5]
    if not op or op == operationId then
      local hit = true
      if chance then hit = draw(S) / two32 < tonumber(chance) end
      if hit then
        local left = ''
        if times then
          local n = redis.call('HINCRBY', specKey, 'n' .. id, -1)
          left = fmt(n)
          if n <= 0 then
            redis.call('LREM', listKey, 1, id)
            redis.call('HDEL', specKey, id, 'o' .. id, 'p' .. id, 'n' .. id, 's' .. id)
          end
        end
        return id, spec, left, source or ''
      end
    end
  end
  return nil
end

local function add_fault(S, max, spec, operationId, chance, times, source)
  local listKey, specKey = fault_keys(S)
  local count = redis.call('LLEN', listKey)
  if count >= max then return { 'too_many_faults', fmt(count) } end
  local id = fmt(redis.call('HINCRBY', S.key, 'fid', 1))
  redis.call('RPUSH', listKey, id)
  redis.call('HSET', specKey, id, spec, 's' .. id, source)
  if operationId ~= '' then redis.call('HSET', specKey, 'o' .. id, operationId) end
  if chance ~= '' then redis.call('HSET', specKey, 'p' .. id, chance) end
  if times ~= '' then redis.call('HSET', specKey, 'n' .. id, times) end
  return { 'ok', id }
end

local function list_faults(S)
  local listKey, specKey = fault_keys(S)
  local out = { 'ok' }
  for _, id in ipairs(redis.call('LRANGE', listKey, 0, -1)) do
    local got = redis.call('HMGET', specKey, id, 'n' .. id)
    out[#out + 1] = id
    out[#out + 1] = got[1]
    out[#out + 1] = got[2] or ''
  end
  return out
end

local function clear_faults(S)
  local listKey, specKey = fault_keys(S)
  local count = redis.call('LLEN', listKey)
  redis.call('DEL', listKey, specKey)
  return count
end
`;

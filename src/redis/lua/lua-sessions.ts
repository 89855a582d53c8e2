/**
 * Sessions: `s:<session>` (a hash: its name, scenario digest, latency, clock
 * offset, generator state, bytes held), the keys of its own items
 * (`s:<session>:keys`, so that a reset or a drop finds them), and the
 * registry of named sessions ordered by last use (`sessions`, scored by the
 * counter `tick`). The default session is never in the registry, so never
 * evicted. `charged` is what every session's own items hold together.
 * With an idle TTL, `idle` holds each named session's last use by the
 * mock's clock (ms): a session unused for longer is dropped (as an eviction
 * drops it, its items, faults and journal with it) by the next call that
 * names it, and any call sweeps a few others; the default session never
 * expires.
 */
export const luaSessions = String.raw`
local function scenario_key(digest)
  return P .. ':sc:' .. digest
end

-- The session block every call that names a session starts with.
local function session_args()
  local S = {}
  S.seg = arg()
  S.name = arg()
  S.create = arg() == '1'
  S.named = arg() == '1'
  S.start = arg()
  S.slmin = arg()
  S.slmax = arg()
  S.soff = arg()
  S.seed = arg()
  S.maxSessions = num(arg())
  S.maxItems = num(arg())
  S.maxBytes = num(arg())
  S.maxTotal = num(arg())
  S.ttl = num(arg())
  S.now = num(arg())
  S.key = P .. ':s:' .. S.seg
  return S
end

-- A revision no store had before: the mock-wide counter, started (when the server holds none, as after
-- a restart that lost it) at the server's time in microseconds, far beyond any handed out earlier.
local function next_rev()
  local key = P .. ':rev'
  if redis.call('EXISTS', key) == 0 then
    local t = redis.call('TIME')
    redis.call('SET', key, t[1] .. string.format('%06d', tonumber(t[2])))
  end
  return fmt(redis.call('INCR', key))
end

-- The session's store changed: its answers are cached under a new revision (see revision()).
local function changed(S)
  S.rev = next_rev()
  redis.call('HSET', S.key, 'rev', S.rev)
end

-- Forgets the session's own items (created, replaced, hidden): back to its scenario's.
local function clear_store(S)
  local keysKey = S.key .. ':keys'
  for _, k in ipairs(redis.call('SMEMBERS', keysKey)) do redis.call('DEL', k) end
  redis.call('DEL', keysKey)
  local own = tonumber(redis.call('HGET', S.key, 'own') or '0')
  if own ~= 0 then redis.call('DECRBY', P .. ':charged', own) end
  redis.call('HSET', S.key, 'own', '0', 'hid', '0', 'rev', '')
  S.own = 0
  S.hid = 0
  S.rev = ''
end

local function drop_session(seg)
  local S = { seg = seg, key = P .. ':s:' .. seg }
  clear_store(S)
  journal_clear(seg)
  redis.call('DEL', S.key, S.key .. ':f', S.key .. ':fs')
  redis.call('ZREM', P .. ':sessions', seg)
  redis.call('ZREM', P .. ':idle', seg)
end

-- Drops up to 'most' named sessions unused since before the TTL (all of them with no 'most'), other
-- than the session of the call: the keys of sessions nobody uses go away while the mock runs.
local function sweep_idle(S, most)
  if not S.ttl or not S.now then return end
  local idle = P .. ':idle'
  local stale = most
    and redis.call('ZRANGEBYSCORE', idle, '-inf', '(' .. fmt(S.now - S.ttl), 'LIMIT', 0, most)
    or redis.call('ZRANGEBYSCORE', idle, '-inf', '(' .. fmt(S.now - S.ttl))
  for _, seg in ipairs(stale) do
    if seg ~= S.seg then
      if has(P .. ':s:' .. seg) then drop_session(seg) else redis.call('ZREM', idle, seg) end
    end
  end
end

-- Whether the session was last used before its TTL ran out: it is dropped then, as though never made.
local function expired(S)
  if not S.ttl or not S.now or not S.named or not S.scn then return false end
  local last = redis.call('ZSCORE', P .. ':idle', S.seg)
  if not last or tonumber(last) + S.ttl >= S.now then return false end
  drop_session(S.seg)
  S.scn = nil
  return true
end

local function load_session(S)
  local got = redis.call('HMGET', S.key, 'scn', 'lmin', 'lmax', 'off', 'rng', 'own', 'hid', 'name', 'rev')
  S.scn, S.lmin, S.lmax, S.off, S.rng = got[1], got[2], got[3], got[4], got[5]
  S.own, S.hid, S.name, S.rev = tonumber(got[6]), tonumber(got[7]), got[8] or S.name, got[9] or ''
end

-- The scenario's name and bytes, or false when its items are not (or no longer) in the server.
local function load_scenario(S)
  local got = redis.call('HMGET', scenario_key(S.scn), 'complete', 'name', 'bytes', 'rev')
  if got[1] ~= '1' then return false end
  S.scnName = got[2]
  S.scnBytes = tonumber(got[3])
  S.scnRev = got[4]
  return true
end

-- What the session's answers are cached under (the store's revision before this call): its own since
-- its last change, or, while it holds none, its scenario's, which every session on it shares (as the
-- memory store does). Unique across the sessions, the replicas and the server's restarts.
local function revision(S)
  if S.rev ~= '' then return S.rev end
  if not S.scnRev then
    S.scnRev = next_rev()
    redis.call('HSET', scenario_key(S.scn), 'rev', S.scnRev)
  end
  return S.scnRev
end

-- Finds the session, or makes it (when S.create) from its starting scenario, evicting the least
-- recently used named session beyond the limit; marks it used. Returns nil (no session, not made),
-- a refusal, or true.
local function touch(S)
  load_session(S)
  expired(S)
  sweep_idle(S, 2)
  if not S.scn then
    if not S.create then return nil end
    local got = redis.call('HGET', scenario_key(S.start), 'complete')
    if got ~= '1' then return { 'scenario_missing', S.start } end
    if S.named and S.maxSessions then
      while redis.call('ZCARD', P .. ':sessions') >= S.maxSessions do
        local oldest = redis.call('ZPOPMIN', P .. ':sessions')
        if #oldest == 0 then break end
        S.evicted = redis.call('HGET', P .. ':s:' .. oldest[1], 'name') or oldest[1]
        drop_session(oldest[1])
      end
    end
    redis.call('HSET', S.key, 'name', S.name, 'scn', S.start, 'start', S.start,
      'lmin', S.slmin, 'lmax', S.slmax, 'slmin', S.slmin, 'slmax', S.slmax,
      'off', S.soff, 'soff', S.soff, 'seed', S.seed, 'rng', S.seed, 'fid', '0',
      'own', '0', 'hid', '0', 'jb', '0', 'jd', '0')
    load_session(S)
  end
  if S.named then
    redis.call('ZADD', P .. ':sessions', redis.call('INCR', P .. ':tick'), S.seg)
    if S.ttl and S.now then redis.call('ZADD', P .. ':idle', 'GT', S.now, S.seg) end
  end
  if not load_scenario(S) then return { 'scenario_missing', S.scn } end
  return true
end

-- Writes back what a call changed in the session's hash (the generator's state).
local function save_session(S)
  if S.drew then redis.call('HSET', S.key, 'rng', S.rng) end
end

local function store_bytes(S)
  return S.scnBytes - S.hid + S.own
end
`;

/**
 * The session's seeded generator, mulberry32 as src/core/support/random.ts has it,
 * in Lua's bit operations: the same seed draws the same sequence in the
 * memory store and here, so `--seed` repeats latency draws and fault
 * chances across replicas too. A draw is the generator's 32-bit output; the
 * caller divides by 2^32 as `createSeededRandom` does. The state lives in
 * the session's hash (`rng`) and is written back once per call.
 */
export const luaRandom = String.raw`
local two32 = 4294967296

-- Math.imul: the low 32 bits of a product, from 16-bit halves so that no double loses a bit.
local function imul(a, b)
  a = a % two32
  b = b % two32
  local ah, al = math.floor(a / 65536), a % 65536
  local bh, bl = math.floor(b / 65536), b % 65536
  local high = (ah * bl + al * bh) % 65536
  return bit.tobit(high * 65536 + al * bl)
end

local function draw(S)
  local state = (tonumber(S.rng) + 1831565813) % two32
  S.rng = fmt(state)
  S.drew = true
  local t = state
  t = imul(bit.bxor(t, bit.rshift(t, 15)), bit.bor(t, 1))
  t = bit.bxor(t, t + imul(bit.bxor(t, bit.rshift(t, 7)), bit.bor(t, 61)))
  return bit.bxor(t, bit.rshift(t, 14)) % two32
end
`;

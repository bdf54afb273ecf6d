/**
 * The Lua scripts of {@link RedisLimiter}. Redis runs each script atomically, so check-and-take cannot interleave
 * between replicas. Time comes from Redis (`TIME`), so replicas with skewed clocks agree. Buckets are hashes
 * `{ l: level, u: updated (unix ms) }` refilled continuously at `capacity` per minute; budget windows are hashes
 * `{ s: settled USD, r: USD reserved by calls in flight }`; concurrency slots are sorted sets whose members are the
 * calls in flight, scored by the time their slot expires (unix ms) unless refreshed. Numbers go back as strings (Lua numbers would be cut to
 * integers by Redis).
 * @see https://redis.io/docs/latest/develop/interact/programmability/eval-intro/
 */
const COMMON = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local WINDOW = 60000
local function level(key, cap)
  local v = redis.call('HMGET', key, 'l', 'u')
  local l = tonumber(v[1])
  if l == nil then return cap end
  l = l + (now - tonumber(v[2])) * cap / WINDOW
  if l > cap then l = cap end
  return l
end
local function msUntil(l, cap, amount)
  local missing = amount - l
  if missing <= 0 then return 0 end
  return math.ceil(missing * WINDOW / cap)
end
local function store(key, l, cap)
  redis.call('HSET', key, 'l', tostring(l), 'u', now)
  redis.call('PEXPIRE', key, msUntil(l, cap, cap) + WINDOW)
end
`;

/**
 * Admission. KEYS: requests bucket, tokens bucket, budget window, concurrency slots, epoch (when this Redis began
 * counting, unix ms). ARGV: rpm (0 = none), tpm (0 = none), tokens to reserve, budget USD (-1 = none), USD to
 * reserve, seed USD ('' = none), budget window TTL ms (0 = none), epsilon USD, concurrency limit (0 = none), this
 * call's slot id, slot TTL ms, requests and tokens of the key in the last minute from the ledger ('' = none).
 * Expired slots (of a process that died without releasing them) are dropped first. Returns `{'seed', 'recent'}` when
 * this Redis began counting less than a minute ago (it came back empty), a bucket of the key is missing and no recent
 * use was given (the bucket then starts at its limit less that use); `{'seed', 'spend'}` when the budget window is
 * unknown and no seed was given; else `{outcome, requests remaining, requests reset ms, tokens remaining, tokens reset ms, retry after ms,
 * spent USD, reserved USD}` with outcome `ok`, `concurrency`, `requests`, `tokens` or `budget` (remaining -1 = no such
 * limit; spent and reserved: the budget window before this call, 0 without a budget).
 */
export const ACQUIRE_SCRIPT = `${COMMON}
local rpm = tonumber(ARGV[1])
local tpm = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local rl = nil
local tl = nil
-- A Redis that came back empty (epoch under a minute old) does not start a key's missing buckets full: they start at
-- what the ledger says the key used in the last minute (ARGV[12] requests, ARGV[13] tokens; asked for with 'seed').
local epoch = tonumber(redis.call('GET', KEYS[5]))
if epoch == nil then
  epoch = now
  redis.call('SET', KEYS[5], now)
end
local fresh = now - epoch < WINDOW
local function seeded(key, cap, used)
  local l = cap - tonumber(used)
  if l < 0 then l = 0 end
  store(key, l, cap)
  return l
end
if fresh and ARGV[12] == '' and ((rpm > 0 and redis.call('EXISTS', KEYS[1]) == 0) or (tpm > 0 and redis.call('EXISTS', KEYS[2]) == 0)) then
  return {'seed', 'recent'}
end
if rpm > 0 then
  if fresh and redis.call('EXISTS', KEYS[1]) == 0 then rl = seeded(KEYS[1], rpm, ARGV[12]) else rl = level(KEYS[1], rpm) end
end
if tpm > 0 then
  if fresh and redis.call('EXISTS', KEYS[2]) == 0 then tl = seeded(KEYS[2], tpm, ARGV[13]) else tl = level(KEYS[2], tpm) end
  if want > tpm then want = tpm end
else
  want = 0
end
local spent = 0
local reserved = 0
if limit >= 0 then
  local b = redis.call('HMGET', KEYS[3], 's', 'r')
  if b[1] == false then
    if ARGV[6] == '' then return {'seed', 'spend'} end
    spent = tonumber(ARGV[6])
    redis.call('HSET', KEYS[3], 's', ARGV[6], 'r', '0')
    if tonumber(ARGV[7]) > 0 then redis.call('PEXPIRE', KEYS[3], ARGV[7]) end
  else
    spent = tonumber(b[1])
    reserved = tonumber(b[2]) or 0
  end
end
local climit = tonumber(ARGV[9])
local inflight = 0
if climit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
  inflight = redis.call('ZCARD', KEYS[4])
end
local outcome = 'ok'
local retry = 0
if climit > 0 and inflight >= climit then
  outcome = 'concurrency'
  retry = 1000
elseif rl ~= nil and rl < 1 then
  outcome = 'requests'
  retry = msUntil(rl, rpm, 1)
elseif tl ~= nil and tl < want then
  outcome = 'tokens'
  retry = msUntil(tl, tpm, want)
elseif limit >= 0 then
  -- The budget rule of MemoryLimiter (budgetAdmits): spend below the budget and, with reservations in flight, room
  -- for them and this call's estimate.
  local eps = tonumber(ARGV[8])
  if spent >= limit - eps or (reserved > eps and spent + reserved + tonumber(ARGV[5]) > limit + eps) then outcome = 'budget' end
end
if outcome == 'ok' then
  if rl ~= nil then
    rl = rl - 1
    store(KEYS[1], rl, rpm)
  end
  if tl ~= nil then
    tl = tl - want
    store(KEYS[2], tl, tpm)
  end
  if limit >= 0 and tonumber(ARGV[5]) > 0 then redis.call('HINCRBYFLOAT', KEYS[3], 'r', ARGV[5]) end
  if climit > 0 then
    redis.call('ZADD', KEYS[4], now + tonumber(ARGV[11]), ARGV[10])
    redis.call('PEXPIRE', KEYS[4], ARGV[11])
  end
end
local function remaining(l)
  if l == nil then return '-1' end
  return tostring(math.max(0, math.floor(l)))
end
local rr = 0
local tr = 0
if rl ~= nil then rr = msUntil(rl, rpm, rpm) end
if tl ~= nil then tr = msUntil(tl, tpm, tpm) end
return {outcome, remaining(rl), tostring(rr), remaining(tl), tostring(tr), tostring(retry), tostring(spent), tostring(reserved)}
`;

/**
 * Settlement of a batch of calls. For call i: KEYS[2i-1] its tokens bucket, KEYS[2i] its budget window; ARGV[4i-3..4i]:
 * tpm (0 = none), tokens to give back (reserved - used, may be negative), USD reserved, USD cost. A budget window
 * that is gone (Redis restarted) is left alone: the next admission rebuilds it from the ledger.
 */
export const SETTLE_SCRIPT = `${COMMON}
for i = 1, #KEYS / 2 do
  local tpm = tonumber(ARGV[4 * i - 3])
  local delta = tonumber(ARGV[4 * i - 2])
  local reserved = tonumber(ARGV[4 * i - 1])
  local cost = tonumber(ARGV[4 * i])
  if tpm > 0 and delta ~= 0 then
    local l = level(KEYS[2 * i - 1], tpm) + delta
    if l > tpm then l = tpm end
    store(KEYS[2 * i - 1], l, tpm)
  end
  if (reserved ~= 0 or cost ~= 0) and redis.call('EXISTS', KEYS[2 * i]) == 1 then
    if reserved ~= 0 then redis.call('HINCRBYFLOAT', KEYS[2 * i], 'r', -reserved) end
    if cost ~= 0 then redis.call('HINCRBYFLOAT', KEYS[2 * i], 's', cost) end
  end
end
return #KEYS / 2
`;

/**
 * Keeps the concurrency slots of calls still in flight (long streams) from expiring. KEYS: slot sets; ARGV[1]: slot
 * TTL ms, ARGV[i + 1]: the slot held in KEYS[i]. A slot that is gone (released, expired, Redis restarted) is not
 * re-added (`ZADD XX`). Returns the number of slots refreshed.
 */
export const REFRESH_SLOTS_SCRIPT = `${COMMON}
local ttl = tonumber(ARGV[1])
local refreshed = 0
for i = 1, #KEYS do
  refreshed = refreshed + redis.call('ZADD', KEYS[i], 'XX', 'CH', now + ttl, ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return refreshed
`;

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
 * Admission of a batch of calls (those of one event-loop turn), each in its key's counters and those of its scopes
 * (team, end user, session), all or nothing per call, in the order given: each call sees what the calls before it
 * took, and a refused call takes nothing. KEYS[1]: epoch (when this Redis began counting, unix ms); then four per
 * subject group (a key or scope and its budget window, named once for every call of the batch that uses it): requests
 * bucket, tokens bucket, budget window, concurrency slots. ARGV[1]: epsilon USD; ARGV[2]: slot TTL ms; then one per
 * call: its plan, followed by `;` and its slot id when it takes one (the slot is the rest of the argument, whatever it
 * holds; none without `;`). A plan is comma-separated numbers: the tokens to reserve, then ten per
 * subject (the key first, then each scope): its group (0-based), rpm (0 = none), tpm (0 = none), budget USD (-1 =
 * none), USD to reserve, seed USD ('' = none), budget window TTL ms (0 = none), concurrency limit (0 = none), and the
 * subject's requests and tokens in the last minute from the ledger ('' = none).
 * Expired slots (of a process that died without releasing them) are dropped first. Returns one comma-separated answer
 * per call: `seed,recent` when this Redis began counting less than a minute ago (it came back empty), a bucket of the
 * key is missing and no recent use was given (the bucket then starts at its limit less that use); `seed,recent,i` the
 * same for subject i's buckets (a team's, an organisation's, an end user's); `seed,spend,i` when subject i's budget
 * window is unknown and no seed was given; else `outcome,subject,requests remaining,requests reset ms,tokens
 * remaining,tokens reset ms,retry after ms,spent USD,reserved USD` with outcome `ok`, `concurrency`, `requests`,
 * `tokens` or `budget`, `subject` the index of the subject that refused (1 = the key), the remaining and resets of
 * the key's own buckets (-1 = no such limit), spent and reserved of the refusing budget window before this call.
 */
const ACQUIRE_BODY = `
local eps = tonumber(ARGV[1])
local slotTtl = tonumber(ARGV[2])
-- A Redis that came back empty (epoch under a minute old) does not start a call's missing buckets full: they start at
-- what the ledger says the subject used in the last minute (asked for with 'seed').
local epoch = tonumber(redis.call('GET', KEYS[1]))
if epoch == nil then
  epoch = now
  redis.call('SET', KEYS[1], now)
end
local fresh = now - epoch < WINDOW
local function seeded(key, cap, used)
  local l = cap - tonumber(used)
  if l < 0 then l = 0 end
  store(key, l, cap)
  return l
end
local function split(p)
  local f = {}
  local from = 1
  while true do
    local comma = string.find(p, ',', from, true)
    if comma == nil then
      f[#f + 1] = string.sub(p, from)
      return f
    end
    f[#f + 1] = string.sub(p, from, comma - 1)
    from = comma + 1
  end
end
local function remaining(l)
  if l == nil then return '-1' end
  return tostring(math.max(0, math.floor(l)))
end
local function admit(plan, slot)
  local f = split(plan)
  local n = (#f - 1) / 10
  local want = tonumber(f[1])
  local s = {}
  for i = 1, n do
    local a = 1 + 10 * (i - 1)
    local k = 1 + 4 * tonumber(f[a + 1])
    s[i] = { rk = KEYS[k + 1], tk = KEYS[k + 2], bk = KEYS[k + 3], ck = KEYS[k + 4], rpm = tonumber(f[a + 2]), tpm = tonumber(f[a + 3]),
      limit = tonumber(f[a + 4]), reserve = tonumber(f[a + 5]), seed = f[a + 6], ttl = tonumber(f[a + 7]), climit = tonumber(f[a + 8]),
      ru = f[a + 9], tu = f[a + 10], spent = 0, reserved = 0, inflight = 0 }
  end
  local own = s[1]
  -- Each subject's missing buckets start at what the ledger says it used in the last minute: asked for with 'seed'.
  if fresh then
    for i = 1, n do
      local x = s[i]
      if x.ru == '' and ((x.rpm > 0 and redis.call('EXISTS', x.rk) == 0) or (x.tpm > 0 and redis.call('EXISTS', x.tk) == 0)) then
        if i == 1 then return 'seed,recent' end
        return 'seed,recent,' .. i
      end
    end
  end
  for i = 1, n do
    local x = s[i]
    if x.rpm > 0 then
      if fresh and x.ru ~= '' and redis.call('EXISTS', x.rk) == 0 then x.rl = seeded(x.rk, x.rpm, x.ru) else x.rl = level(x.rk, x.rpm) end
    end
    x.want = 0
    if x.tpm > 0 then
      if fresh and x.tu ~= '' and redis.call('EXISTS', x.tk) == 0 then x.tl = seeded(x.tk, x.tpm, x.tu) else x.tl = level(x.tk, x.tpm) end
      x.want = want
      if x.want > x.tpm then x.want = x.tpm end
    end
    if x.limit >= 0 then
      local b = redis.call('HMGET', x.bk, 's', 'r')
      if b[1] == false then
        if x.seed == '' then return 'seed,spend,' .. i end
        x.spent = tonumber(x.seed)
        redis.call('HSET', x.bk, 's', x.seed, 'r', '0')
        if x.ttl > 0 then redis.call('PEXPIRE', x.bk, x.ttl) end
      else
        x.spent = tonumber(b[1])
        x.reserved = tonumber(b[2]) or 0
      end
    end
    if x.climit > 0 then
      redis.call('ZREMRANGEBYSCORE', x.ck, '-inf', now)
      x.inflight = redis.call('ZCARD', x.ck)
    end
  end
  local outcome = 'ok'
  local who = 0
  local retry = 0
  for i = 1, n do
    local x = s[i]
    if x.climit > 0 and x.inflight >= x.climit then
      outcome = 'concurrency'
      retry = 1000
    elseif x.rl ~= nil and x.rl < 1 then
      outcome = 'requests'
      retry = msUntil(x.rl, x.rpm, 1)
    elseif x.tl ~= nil and x.tl < x.want then
      outcome = 'tokens'
      retry = msUntil(x.tl, x.tpm, x.want)
    elseif x.limit >= 0 then
      -- The budget rule of MemoryLimiter (budgetAdmits): spend below the budget and, with reservations in flight, room
      -- for them and this call's estimate.
      if x.spent >= x.limit - eps or (x.reserved > eps and x.spent + x.reserved + x.reserve > x.limit + eps) then outcome = 'budget' end
    end
    if outcome ~= 'ok' then
      who = i
      break
    end
  end
  if outcome == 'ok' then
    for i = 1, n do
      local x = s[i]
      if x.rl ~= nil then
        x.rl = x.rl - 1
        store(x.rk, x.rl, x.rpm)
      end
      if x.tl ~= nil then
        x.tl = x.tl - x.want
        store(x.tk, x.tl, x.tpm)
      end
      if x.limit >= 0 and x.reserve > 0 then redis.call('HINCRBYFLOAT', x.bk, 'r', tostring(x.reserve)) end
      if x.climit > 0 then
        redis.call('ZADD', x.ck, now + slotTtl, slot)
        redis.call('PEXPIRE', x.ck, slotTtl)
      end
    end
  end
  local rr = 0
  local tr = 0
  if own.rl ~= nil then rr = msUntil(own.rl, own.rpm, own.rpm) end
  if own.tl ~= nil then tr = msUntil(own.tl, own.tpm, own.tpm) end
  local spent = 0
  local reserved = 0
  if who > 0 then
    spent = s[who].spent
    reserved = s[who].reserved
  end
  return table.concat({outcome, tostring(who), remaining(own.rl), tostring(rr), remaining(own.tl), tostring(tr), tostring(retry), tostring(spent), tostring(reserved)}, ',')
end
local out = {}
for c = 1, #ARGV - 2 do
  local p = ARGV[2 + c]
  local semi = string.find(p, ';', 1, true)
  if semi == nil then out[c] = admit(p, '') else out[c] = admit(string.sub(p, 1, semi - 1), string.sub(p, semi + 1)) end
end
return out
`;
export const ACQUIRE_SCRIPT = `${COMMON}${ACQUIRE_BODY}`;

/**
 * Settlement of a batch of calls' subjects (a key or a scope each), applied at most once, in order. KEYS[1]: the batch's
 * marker (`<prefix>settled:<batch id>`), set with ARGV[1] (ms) to live; a batch whose marker exists was applied already
 * (a retry after a lost reply) and is skipped, returning an empty list. Then two per subject group (a subject and its
 * budget window, named once for every part of the batch that uses it): its tokens bucket and its budget window. ARGV[i
 * + 1], part i: comma-separated numbers: its group (0-based), tpm (0 = none), tokens to give back (reserved - used,
 * may be negative), USD reserved, USD cost. A budget window that is gone (Redis restarted, or an idle scope's window
 * expired) is left alone: the next admission rebuilds it from the ledger. Returns, per part, the window's settled
 * spend after it (USD, as text), or '' when it has no such window.
 */
const SETTLE_BODY = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', tonumber(ARGV[1])) == false then return {} end
local out = {}
for i = 1, #ARGV - 1 do
  local p = ARGV[i + 1]
  local c1 = string.find(p, ',', 1, true)
  local c2 = string.find(p, ',', c1 + 1, true)
  local c3 = string.find(p, ',', c2 + 1, true)
  local c4 = string.find(p, ',', c3 + 1, true)
  local k = 2 + 2 * tonumber(string.sub(p, 1, c1 - 1))
  local tpm = tonumber(string.sub(p, c1 + 1, c2 - 1))
  local delta = tonumber(string.sub(p, c2 + 1, c3 - 1))
  local reserved = tonumber(string.sub(p, c3 + 1, c4 - 1))
  local cost = tonumber(string.sub(p, c4 + 1))
  local tk = KEYS[k]
  local bk = KEYS[k + 1]
  if tpm > 0 and delta ~= 0 then
    local l = level(tk, tpm) + delta
    if l > tpm then l = tpm end
    store(tk, l, tpm)
  end
  local spent = ''
  if (reserved ~= 0 or cost ~= 0) and redis.call('EXISTS', bk) == 1 then
    if reserved ~= 0 then redis.call('HINCRBYFLOAT', bk, 'r', tostring(-reserved)) end
    if cost ~= 0 then spent = redis.call('HINCRBYFLOAT', bk, 's', tostring(cost)) else spent = redis.call('HGET', bk, 's') end
  end
  out[i] = spent
end
return out
`;
export const SETTLE_SCRIPT = `${COMMON}${SETTLE_BODY}`;

/**
 * The settlements and the admissions of one event-loop turn in one script call (see {@link SETTLE_SCRIPT} and
 * {@link ACQUIRE_SCRIPT}, whose bodies it runs on their own slices of `KEYS` and `ARGV`): ARGV[1] and ARGV[2] the
 * settlement's number of keys and of arguments (0 and 0: none), ARGV[3] the admission's number of keys (0: none); then
 * the settlement's keys and arguments, then the admission's. Settlements first, so that what they give back is there
 * for the admissions. Returns `{ settlement's answer, admission's answer }` (an empty list for a part not asked).
 */
export const TURN_SCRIPT = `${COMMON}
local function settle(KEYS, ARGV)
${SETTLE_BODY}
end
local function acquire(KEYS, ARGV)
${ACQUIRE_BODY}
end
local sk, sa, ak = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local function slice(t, from, n)
  local r = {}
  for i = 1, n do r[i] = t[from + i] end
  return r
end
local settled, admitted = {}, {}
if sk > 0 then settled = settle(slice(KEYS, 0, sk), slice(ARGV, 3, sa)) end
if ak > 0 then admitted = acquire(slice(KEYS, sk, #KEYS - sk), slice(ARGV, 3 + sa, #ARGV - 3 - sa)) end
return { settled, admitted }
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

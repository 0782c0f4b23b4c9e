import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { RedisClient, ServiceUnavailableError } from '../../../../core/index.ts'
import { distinctMembers, userKey, type ChannelStore } from './channel-store.ts'
import type { ChannelInfo, PresenceMember } from './hub.ts'
import { unavailable } from '../scaling/redis-unavailable.ts'

// Each script runs atomically, so two processes joining the same user at once
// still agree on who was first. The node set entry doubles as the guard that
// makes leave idempotent (a reaper and the owner may race).
const JOIN = `
if redis.call('SADD', KEYS[4], ARGV[5]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[3], ARGV[4], 1)
if ARGV[3] == '' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HINCRBY', KEYS[2], ARGV[3], 1)`

const LEAVE = `
if redis.call('SREM', KEYS[4], ARGV[5]) == 0 then return -1 end
if redis.call('HINCRBY', KEYS[3], ARGV[4], -1) <= 0 then redis.call('HDEL', KEYS[3], ARGV[4]) end
if ARGV[3] == '' then return 1 end
redis.call('HDEL', KEYS[1], ARGV[1])
local n = redis.call('HINCRBY', KEYS[2], ARGV[3], -1)
if n <= 0 then redis.call('HDEL', KEYS[2], ARGV[3]) end
return n`

type Scripted = Redis & {
  rtJoin(...args: string[]): Promise<number>
  rtLeave(...args: string[]): Promise<number>
}

/** A presence member left behind by a process that died. */
export interface ReapedMember {
  channel: string
  member: PresenceMember
}

/**
 * One subscription this process holds, as it is recorded in Redis.
 *
 * @example
 * ```ts
 * const held: LocalSubscription = { channel: 'presence-chat', socketId: '1.2', member: { user_id: 7 } }
 * ```
 */
export interface LocalSubscription {
  channel: string
  socketId: string
  member?: PresenceMember
}

/**
 * A presence change the store made by itself while healing: announce it like any join or leave.
 *
 * @example
 * ```ts
 * for (const change of changes) announce(change.joined ? 'member_added' : 'member_removed', change.channel, change.member)
 * ```
 */
export interface HealedChange {
  channel: string
  member: PresenceMember
  /** The socket that (re)joined: it already knows, so it is left out of the announcement. */
  socketId: string
  joined: boolean
}

/**
 * What the store is told about its process, and tells it back.
 *
 * @example
 * ```ts
 * new RedisChannelStore(redis, 'kiln:', { heartbeatMs: 5000, local: () => sockets.subscriptions(), onHealed: announce })
 * ```
 */
export interface RedisChannelStoreOptions {
  /** How often this process beats (default 5000 ms); a process silent for 3 beats is reaped. */
  heartbeatMs?: number
  /** Every subscription this process holds now: the truth Redis is healed to. */
  local?: () => LocalSubscription[]
  /** Members of a dead process, removed by this one. */
  onReaped?: (reaped: ReapedMember[]) => void
  /** Records put back or removed to match this process after Redis lost or kept the wrong ones. */
  onHealed?: (changes: HealedChange[], counts: { added: number; removed: number }) => void
  /** A Redis command failed (an outage, a stall): for the outage log. */
  onFailure?: (error: unknown) => void
}

/**
 * Subscription counts and presence rosters in Redis, shared by every rt
 * process on the same prefix. Each process heartbeats; the survivors reap the
 * subscriptions of a process that stopped heartbeating, so rosters heal after
 * a crash.
 *
 * Redis can also lose or keep the wrong records of a live process: an outage
 * long enough for it to be reaped, a FLUSHALL or a restart without
 * persistence, a departure that could not be recorded while Redis was
 * unreachable, a subscription refused after a timeout that Redis carried out
 * anyway. So after any failed command, or when its heartbeat finds itself
 * gone from Redis, the process heals: it compares its records in Redis with
 * the subscriptions it really holds, adds what is missing, removes what is
 * stale, and reports the presence changes to announce.
 *
 * @example
 * ```ts
 * const store = new RedisChannelStore(redis, 'kiln:', { local: () => server.subscriptions() })
 * await store.start()
 * ```
 */
export class RedisChannelStore implements ChannelStore {
  /** This process, in Redis. */
  readonly node = randomBytes(8).toString('hex')
  private readonly redis: Scripted
  private readonly heartbeatMs: number
  private timer?: NodeJS.Timeout
  private beaten = false
  /** Redis may not match this process (a write failed, or Redis lost its records): heal at the next beat. */
  private stale = false
  /** Since when Redis has answered without a failure: other processes are only reaped after 3 beats of it. */
  private healthySince = Date.now()
  private beating?: Promise<void>

  constructor(
    client: RedisClient,
    private readonly prefix: string,
    private readonly options: RedisChannelStoreOptions = {},
  ) {
    // An ioredis client (the parameter names the structural type: ioredis is an optional peer).
    const redis = client as Redis
    redis.defineCommand('rtJoin', { numberOfKeys: 4, lua: JOIN })
    redis.defineCommand('rtLeave', { numberOfKeys: 4, lua: LEAVE })
    this.redis = redis as Scripted
    this.heartbeatMs = options.heartbeatMs ?? 5000
  }

  /** Starts heartbeating and reaping (a first beat that fails is retried by the timer). @example `await store.start()` */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.tick(), this.heartbeatMs)
    this.timer.unref()
    await this.tick()
  }

  async join(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    return (await this.write(this.redis.rtJoin(...this.keys(channel, this.node), ...this.args(channel, this.node, socketId, member)))) === 1
  }

  async leave(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    return this.write(this.leaveFor(this.node, channel, socketId, member))
  }

  async members(channel: string): Promise<PresenceMember[]> {
    const records = await this.read(this.redis.hvals(this.key('members', channel)))
    return distinctMembers(records.map((json) => JSON.parse(json) as PresenceMember))
  }

  async channels(prefix = ''): Promise<Map<string, ChannelInfo>> {
    const counts = await this.read(this.redis.hgetall(this.key('channels')))
    const out = new Map<string, ChannelInfo>()
    for (const [name, count] of Object.entries(counts)) {
      if (name.startsWith(prefix) && Number(count) > 0) out.set(name, await this.channel(name))
    }
    return out
  }

  async channel(name: string): Promise<ChannelInfo> {
    const [count, users] = await this.read(Promise.all([this.redis.hget(this.key('channels'), name), this.redis.hlen(this.key('users', name))]))
    const subscriptionCount = Math.max(0, Number(count ?? 0))
    const base = { occupied: subscriptionCount > 0, subscriptionCount }
    return name.startsWith('presence-') ? { ...base, userCount: users } : base
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.redis.zrem(this.key('nodes'), this.node).catch(() => {})
  }

  /** One heartbeat at a time: a slow one (healing many records) is not overlapped by the next. */
  private tick(): Promise<void> {
    const beating = (this.beating ??= this.beat()
      .catch((error: unknown) => void this.failed(error))
      .finally(() => (this.beating = undefined)))
    return beating
  }

  private async beat(): Promise<void> {
    const now = Date.now()
    // ZADD answers 1 for a new member: after the first beat, this process's records were reaped or flushed.
    const added = await this.redis.zadd(this.key('nodes'), now, this.node)
    if (this.beaten && added === 1) this.stale = true
    this.beaten = true
    if (this.healthySince === Infinity) this.healthySince = now
    if (this.stale) await this.heal()
    // Right after an outage every process's last beat looks old: give the others 3 beats to come back before reaping them.
    if (now - this.healthySince < this.heartbeatMs * 3) return
    const dead = await this.redis.zrangebyscore(this.key('nodes'), '-inf', now - this.heartbeatMs * 3)
    for (const node of dead) if (node !== this.node) this.options.onReaped?.(await this.reap(node))
  }

  /**
   * Makes this process's records in Redis equal to the subscriptions it
   * holds. Redis is read first and the process second, so a subscription
   * made meanwhile is never taken for a stale one.
   */
  private async heal(): Promise<void> {
    this.stale = false
    const recorded = new Set(await this.redis.smembers(this.key('node', this.node)))
    const wanted = new Map((this.options.local?.() ?? []).map((s) => [this.entry(s.channel, s.socketId, s.member), s] as const))
    const changes: HealedChange[] = []
    let added = 0
    let removed = 0
    for (const entry of recorded) {
      if (wanted.has(entry)) continue
      const [channel, socketId, member] = JSON.parse(entry) as [string, string, PresenceMember | null]
      removed++
      if (await this.leaveFor(this.node, channel, socketId, member ?? undefined)) changes.push({ channel, socketId, member: member!, joined: false })
    }
    for (const [entry, { channel, socketId, member }] of wanted) {
      if (recorded.has(entry)) continue
      added++
      const result = await this.redis.rtJoin(...this.keys(channel, this.node), ...this.args(channel, this.node, socketId, member))
      if (result === 1 && member) changes.push({ channel, socketId, member, joined: true })
    }
    if (added + removed > 0) this.options.onHealed?.(changes, { added, removed })
  }

  /** Leaves every subscription a dead process left behind. */
  private async reap(node: string): Promise<ReapedMember[]> {
    const reaped: ReapedMember[] = []
    for (const entry of await this.redis.smembers(this.key('node', node))) {
      const [channel, socketId, json] = JSON.parse(entry) as [string, string, PresenceMember | null]
      if (await this.leaveFor(node, channel, socketId, json ?? undefined)) reaped.push({ channel, member: json! })
    }
    await this.redis.zrem(this.key('nodes'), node)
    return reaped
  }

  private async leaveFor(node: string, channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    return (await this.redis.rtLeave(...this.keys(channel, node), ...this.args(channel, node, socketId, member))) === 0 && member !== undefined
  }

  /** A change that failed may still have been carried out (a timeout): heal once Redis answers again. */
  private write<T>(command: Promise<T>): Promise<T> {
    return command.catch((error: unknown) => {
      this.stale = true
      throw this.failed(error)
    })
  }

  private read<T>(command: Promise<T>): Promise<T> {
    return command.catch((error: unknown) => {
      throw this.failed(error)
    })
  }

  private failed(error: unknown): ServiceUnavailableError {
    this.stale = true
    this.healthySince = Infinity
    this.options.onFailure?.(error)
    return unavailable(error)
  }

  private keys(channel: string, node: string): string[] {
    return [this.key('members', channel), this.key('users', channel), this.key('channels'), this.key('node', node)]
  }

  private args(channel: string, node: string, socketId: string, member?: PresenceMember): string[] {
    return [`${node}|${socketId}`, member ? JSON.stringify(member) : '', member ? userKey(member) : '', channel, this.entry(channel, socketId, member)]
  }

  private entry(channel: string, socketId: string, member?: PresenceMember): string {
    return JSON.stringify([channel, socketId, member ?? null])
  }

  private key(kind: string, name?: string): string {
    return name === undefined ? `${this.prefix}rt:${kind}` : `${this.prefix}rt:${kind}:${name}`
  }
}

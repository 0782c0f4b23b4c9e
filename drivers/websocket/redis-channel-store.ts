import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { distinctMembers, userKey, type ChannelStore } from './channel-store.ts'
import type { ChannelInfo, PresenceMember } from './hub.ts'

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
 * Subscription counts and presence rosters in Redis, shared by every rt
 * process on the same prefix. Each process heartbeats; the survivors reap the
 * subscriptions of a process that stopped heartbeating, so rosters heal after
 * a crash.
 *
 * @example
 * ```ts
 * const store = new RedisChannelStore(redis, 'kiln:')
 * await store.start()
 * ```
 */
export class RedisChannelStore implements ChannelStore {
  /** This process, in Redis. */
  readonly node = randomBytes(8).toString('hex')
  private readonly redis: Scripted
  private timer?: NodeJS.Timeout

  private beaten = false

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly heartbeatMs = 5000,
    private readonly onReaped: (reaped: ReapedMember[]) => void = () => {},
    /** This process's records vanished (reaped during an outage, or a FLUSHALL): record them again. */
    private readonly onLost: () => Promise<void> = async () => {},
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {
    redis.defineCommand('rtJoin', { numberOfKeys: 4, lua: JOIN })
    redis.defineCommand('rtLeave', { numberOfKeys: 4, lua: LEAVE })
    this.redis = redis as Scripted
  }

  /** Starts heartbeating and reaping (a first beat that fails is retried by the timer). @example `await store.start()` */
  async start(): Promise<void> {
    this.timer = setInterval(() => {
      this.beat().catch((error: unknown) => this.onFailure(error))
    }, this.heartbeatMs)
    this.timer.unref()
    await this.beat()
  }

  async join(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    return (await this.redis.rtJoin(...this.keys(channel, this.node), ...this.args(channel, this.node, socketId, member))) === 1
  }

  async leave(channel: string, socketId: string, member?: PresenceMember): Promise<boolean> {
    return this.leaveFor(this.node, channel, socketId, member)
  }

  async members(channel: string): Promise<PresenceMember[]> {
    const records = await this.redis.hvals(this.key('members', channel))
    return distinctMembers(records.map((json) => JSON.parse(json) as PresenceMember))
  }

  async channels(prefix = ''): Promise<Map<string, ChannelInfo>> {
    const counts = await this.redis.hgetall(this.key('channels'))
    const out = new Map<string, ChannelInfo>()
    for (const [name, count] of Object.entries(counts)) {
      if (name.startsWith(prefix) && Number(count) > 0) out.set(name, await this.channel(name))
    }
    return out
  }

  async channel(name: string): Promise<ChannelInfo> {
    const [count, users] = await Promise.all([this.redis.hget(this.key('channels'), name), this.redis.hlen(this.key('users', name))])
    const subscriptionCount = Math.max(0, Number(count ?? 0))
    const base = { occupied: subscriptionCount > 0, subscriptionCount }
    return name.startsWith('presence-') ? { ...base, userCount: users } : base
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.redis.zrem(this.key('nodes'), this.node).catch(() => {})
  }

  private async beat(): Promise<void> {
    const now = Date.now()
    // ZADD answers 1 for a new member: after the first beat, that means this process's records were reaped or flushed.
    const added = await this.redis.zadd(this.key('nodes'), now, this.node)
    if (this.beaten && added === 1) await this.onLost()
    this.beaten = true
    const dead = await this.redis.zrangebyscore(this.key('nodes'), '-inf', now - this.heartbeatMs * 3)
    for (const node of dead) if (node !== this.node) this.onReaped(await this.reap(node))
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

  private keys(channel: string, node: string): string[] {
    return [this.key('members', channel), this.key('users', channel), this.key('channels'), this.key('node', node)]
  }

  private args(channel: string, node: string, socketId: string, member?: PresenceMember): string[] {
    return [`${node}|${socketId}`, member ? JSON.stringify(member) : '', member ? userKey(member) : '', channel, JSON.stringify([channel, socketId, member ?? null])]
  }

  private key(kind: string, name?: string): string {
    return name === undefined ? `${this.prefix}rt:${kind}` : `${this.prefix}rt:${kind}:${name}`
  }
}

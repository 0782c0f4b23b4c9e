import { failFastRedisOptions, redisReady, redisTarget, watchRedis, type Logger, type RedisClient, type RedisHealth } from '../../../../core/index.ts'
import { RedisChannelStore, type HealedChange, type LocalSubscription, type ReapedMember } from '../channels/redis-channel-store.ts'
import { RedisRelay, type RelayMessage } from './redis-relay.ts'
import type { RtConfig } from '../rt-config.ts'

/** What the rt server hands the scaling layer. */
export interface ScalingHooks {
  deliver(channel: string, message: RelayMessage): void
  reaped(members: ReapedMember[]): void
  /** Every subscription this process holds: what Redis is healed to after it lost or kept the wrong records. */
  local(): LocalSubscription[]
  /** Presence changes made while healing, to announce. */
  healed(changes: HealedChange[]): void
}

/** The Redis side of a scaled rt server. */
export interface Scaling {
  store: RedisChannelStore
  relay: RedisRelay
  health: RedisHealth
  clients: RedisClient[]
}

/**
 * Connects an rt server to Redis for scaling: a publisher that fails fast
 * (commands time out after `scaling.timeout_ms`, nothing is parked while
 * Redis is down, and a connection that stops answering is dropped and made
 * again, so a stalled Redis costs one timeout, not one per command), a
 * subscriber for the relay, the shared channel store, and one log warning
 * per outage with a note when it ends. Redis may be down at boot: the server
 * starts anyway, and the relay and heartbeat begin once Redis is reachable.
 *
 * @example
 * ```ts
 * const scaling = await startScaling(config.scaling, logger, { deliver, reaped, local, healed })
 * ```
 */
export async function startScaling(config: RtConfig['scaling'], logger: Logger, hooks: ScalingHooks): Promise<Scaling> {
  const { Redis: IORedis } = await import('ioredis')
  const { prefix, timeout_ms: timeoutMs, heartbeat_seconds: heartbeat } = config
  const url = config.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  // What a dropped connection cut off fails at once (and is answered 4310 or 503): it is not sent again behind the caller's back.
  const publisher = new IORedis(url, failFastRedisOptions({ timeoutMs }))
  // A subscriber waits for messages indefinitely: no command or socket timeout on it.
  const subscriber = new IORedis(url, { ...failFastRedisOptions({ timeoutMs }), commandTimeout: undefined, socketTimeout: undefined })
  const health = watchRedis(publisher, logger, { rt: 'scaling', redis: redisTarget(url) })
  subscriber.on('error', () => {})
  const failed = (error: unknown) => health.failed(error)
  const store = new RedisChannelStore(publisher, prefix, {
    heartbeatMs: heartbeat * 1000,
    local: hooks.local,
    onReaped: hooks.reaped,
    onFailure: failed,
    onHealed: (changes, counts) => {
      logger.info({ rt: 'scaling', ...counts }, "rt: Redis did not match this process's subscriptions; recorded them again")
      hooks.healed(changes)
    },
  })
  const relay = new RedisRelay(
    publisher,
    subscriber,
    prefix,
    hooks.deliver,
    (channel) => logger.warn({ channel }, 'rt: ignored a relay message that is not Kiln JSON'),
    failed,
  )
  await Promise.all([redisReady(publisher, timeoutMs), redisReady(subscriber, timeoutMs)]).catch(failed)
  await Promise.all([store.start(), relay.start()]).catch(failed)
  return { store, relay, health, clients: [publisher, subscriber] }
}

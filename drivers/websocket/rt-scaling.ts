import type { Redis } from 'ioredis'
import { failFastRedisOptions, redisReady, redisTarget, watchRedis, type Logger, type RedisHealth } from '../../core/index.ts'
import { RedisChannelStore, type ReapedMember } from './redis-channel-store.ts'
import { RedisRelay, type RelayMessage } from './redis-relay.ts'
import type { RtConfig } from './rt-config.ts'

/** What the rt server hands the scaling layer. */
export interface ScalingHooks {
  deliver(channel: string, message: RelayMessage): void
  reaped(members: ReapedMember[]): void
  /** This process's records vanished from Redis: record them again. */
  lost(): Promise<void>
}

/** The Redis side of a scaled rt server. */
export interface Scaling {
  store: RedisChannelStore
  relay: RedisRelay
  health: RedisHealth
  clients: Redis[]
}

/**
 * Connects an rt server to Redis for scaling: a publisher that fails fast
 * (commands time out after `scaling.timeout_ms`, nothing is parked while
 * Redis is down), a subscriber for the relay, the shared channel store, and
 * one log warning per outage. Redis may be down at boot: the server starts
 * anyway, and the relay and heartbeat begin once Redis is reachable.
 *
 * @example
 * ```ts
 * const scaling = await startScaling(config.scaling, logger, { deliver, reaped, lost })
 * ```
 */
export async function startScaling(config: RtConfig['scaling'], logger: Logger, hooks: ScalingHooks): Promise<Scaling> {
  const { Redis: IORedis } = await import('ioredis')
  const { prefix, timeout_ms: timeoutMs, heartbeat_seconds: heartbeat } = config
  const url = config.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  const publisher = new IORedis(url, failFastRedisOptions({ timeoutMs }))
  // A subscriber waits for messages indefinitely: no command timeout on it.
  const subscriber = new IORedis(url, { ...failFastRedisOptions({ timeoutMs }), commandTimeout: undefined })
  const health = watchRedis(publisher, logger, { rt: 'scaling', redis: redisTarget(url) })
  subscriber.on('error', () => {})
  const store = new RedisChannelStore(publisher, prefix, heartbeat * 1000, hooks.reaped, hooks.lost, (error) => health.failed(error))
  const relay = new RedisRelay(publisher, subscriber, prefix, hooks.deliver, (channel) => logger.warn({ channel }, 'rt: ignored a relay message that is not Kiln JSON'))
  await Promise.all([redisReady(publisher, timeoutMs), redisReady(subscriber, timeoutMs)]).catch((error: unknown) => health.failed(error))
  await Promise.all([store.start(), relay.start()]).catch((error: unknown) => health.failed(error))
  return { store, relay, health, clients: [publisher, subscriber] }
}

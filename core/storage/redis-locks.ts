import type { Redis } from 'ioredis'
import type { StoreLocks } from './store-lock.ts'

/** Deletes KEYS[1] only while it holds ARGV[1] (the owner): a lock that expired and was taken by another is left alone. */
const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`

/**
 * The `redis` store's locks, seen by every process and machine that reaches
 * the server: `SET key owner NX PX ms` takes one (Redis does it atomically,
 * and drops it after `ms`), a Lua compare-and-delete releases it. The key
 * is `<store prefix>:lock:<name>`. Each command goes through `command`,
 * which fails fast (503) while Redis is down.
 *
 * @example
 * ```ts
 * const locks = redisLocks(client, 'shop:cache', (run) => run())
 * await locks.acquire('reports', 'owner-1', 60_000)
 * ```
 */
export function redisLocks(client: Redis, prefix: string, command: <R>(run: () => Promise<R>) => Promise<R>): StoreLocks {
  const base = prefix.replace(/:+$/, '')
  const key = (name: string) => (base ? `${base}:lock:${name}` : `lock:${name}`)
  return {
    scope: 'machines',
    acquire: async (name, owner, ms) => (await command(() => client.set(key(name), owner, 'PX', ms, 'NX'))) === 'OK',
    release: async (name, owner) => (await command(() => client.eval(COMPARE_AND_DELETE, 1, key(name), owner))) === 1,
    forceRelease: async (name) => void (await command(() => client.del(key(name)))),
    holder: (name) => command(() => client.get(key(name))),
  }
}

import { randomBytes } from 'node:crypto'
import test from 'ava'
import { Redis } from 'ioredis'
import { storeLock } from '../../../core/index.ts'
import { ServiceUnavailableError } from '../../../core/support/redis-health.ts'
import { freePort, redisServer } from '../../fixtures/redis-server.ts'
import { openStore, testLocks, unique } from '../../contracts/lock.contract.ts'

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
// Every app of this file on one prefix: their separate clients race for the same keys, as separate machines would.
const prefix = `kiln-test-locks-${randomBytes(4).toString('hex')}`

testLocks('redis', { store: { url, prefix }, scope: 'machines', shared: true })

test('redis: a lock is the key <prefix>:lock:<name> holding its owner, with the expiry in Redis', async (t) => {
  const store = await openStore(t, { driver: 'redis', url, prefix })
  const raw = new Redis(url)
  t.teardown(() => raw.quit())
  const name = unique('key')
  const lock = storeLock(store, name, { seconds: 30 })
  t.true(await lock.acquire())
  t.is(await raw.get(`${prefix}:lock:${name}`), lock.owner)
  const ttl = await raw.pttl(`${prefix}:lock:${name}`)
  t.true(ttl > 0 && ttl <= 30_000, `pttl ${ttl}`)
  t.true(await lock.release())
  t.is(await raw.exists(`${prefix}:lock:${name}`), 0)
})

test('redis: while Redis is down a lock fails fast with a 503, and works again once Redis is back', async (t) => {
  const port = await freePort()
  const redis = await redisServer(t, port)
  const store = await openStore(t, { driver: 'redis', url: `redis://127.0.0.1:${port}`, prefix, timeout_ms: 300 })
  const name = unique('outage')
  t.true(await storeLock(store, name, { seconds: 30 }).acquire())
  await redis.stop()
  // A hang would end in the test's timeout; each attempt must come back as a 503 instead.
  for (let i = 0; i < 3; i++) {
    const error = await t.throwsAsync(storeLock(store, name, { seconds: 30 }).acquire(), { instanceOf: ServiceUnavailableError })
    t.is(error!.status, 503)
  }
  await redis.start()
  // A new server, empty: the lock is free again once the client has reconnected.
  let taken: boolean | undefined
  while (taken === undefined)
    taken = await storeLock(store, name, { seconds: 30 })
      .acquire()
      .catch(() => undefined)
  t.true(taken)
})

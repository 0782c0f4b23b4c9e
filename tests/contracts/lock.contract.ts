import { setTimeout as sleep } from 'node:timers/promises'
import test from 'ava'
import type { Storage } from 'unstorage'
import { createApp, LockTimeoutError, lockScope, storeLock, type LockScope } from '../../core/index.ts'
import { tempApp } from '../fixtures/temp-app.ts'

/** A store's config, and whether two apps given it see each other's locks (so the race runs across apps). */
export interface LockContract {
  /** The store's config beside `driver`. */
  store?: Record<string, unknown>
  scope: LockScope
  /** Two apps on this config share their locks (redis: same prefix; fs: same absolute folder). */
  shared: boolean
}

let counter = 0
/** A lock name no other test (or test process) uses. */
export const unique = (what: string) => `${what}-${process.pid}-${++counter}`

/**
 * The contract of the locks every store driver keeps, in the manner of unstorage's `testDriver`: who sees them,
 * one winner among many acquires, owner-only release, expiry, `block()` and `run()`, and refused options.
 *
 * @example
 * ```ts
 * testLocks('redis', { store: { url, prefix }, scope: 'machines', shared: true })
 * ```
 */
export function testLocks(driver: string, options: LockContract): void {
  const config = { driver, ...options.store }
  const open = (t: { teardown(fn: () => unknown): void }) => openStore(t, config)

  test(`${driver}: lockScope says who sees the store's locks`, async (t) => {
    t.is(lockScope(await open(t)), options.scope)
  })

  test(`${driver}: many acquires of one lock at once, exactly one wins`, async (t) => {
    // Separate apps (separate clients, separate roots) when the driver's locks reach that far.
    const stores = await Promise.all(Array.from({ length: options.shared ? 4 : 1 }, () => open(t)))
    const name = unique('race')
    const locks = Array.from({ length: 64 }, (_, i) => storeLock(stores[i % stores.length]!, name, { seconds: 30 }))
    const won = await Promise.all(locks.map((lock) => lock.acquire()))
    t.is(won.filter(Boolean).length, 1)
    const winner = locks[won.indexOf(true)]!
    t.true(await winner.isOwned())
    for (const lock of locks.filter((l) => l !== winner)) t.false(await lock.isOwned())
    // Another round once it is released: again exactly one.
    t.true(await winner.release())
    const again = await Promise.all(locks.map((lock) => lock.acquire()))
    t.is(again.filter(Boolean).length, 1)
  })

  test(`${driver}: only the owner releases; a lock restored with the owner's token releases it`, async (t) => {
    const store = await open(t)
    const name = unique('owner')
    const first = storeLock(store, name, { seconds: 30 })
    const other = storeLock(store, name, { seconds: 30 })
    t.true(await first.acquire())
    t.false(await other.acquire())
    t.false(await other.release())
    t.false(await other.acquire(), "someone else's release left the lock held")
    t.true(await first.isOwned())
    const restored = storeLock(store, name, { seconds: 30, owner: first.owner })
    t.true(await restored.release())
    t.false(await first.release(), 'released once only')
    t.true(await other.acquire())
    await other.forceRelease()
    t.false(await other.isOwned())
    t.true(await first.acquire())
  })

  test(`${driver}: a lock expires by itself, and its old owner can then release nothing`, async (t) => {
    const store = await open(t)
    const name = unique('expiry')
    const crashed = storeLock(store, name, { seconds: 1.5 })
    const next = storeLock(store, name, { seconds: 30 })
    t.true(await crashed.acquire())
    t.false(await next.acquire())
    // Its holder never releases it (it crashed): it frees itself.
    while (!(await next.acquire())) await sleep(50)
    t.false(await crashed.isOwned())
    t.false(await crashed.release())
    t.true(await next.isOwned(), "the expired owner's release left the new holder's lock alone")
  })

  test(`${driver}: block() waits for the release; it gives up with E_LOCK_TIMEOUT; run() runs only with the lock`, async (t) => {
    const store = await open(t)
    const name = unique('block')
    const holder = storeLock(store, name, { seconds: 30 })
    t.true(await holder.acquire())
    const waiter = storeLock(store, name, { seconds: 30 })
    let done = false
    const waiting = waiter.block(20, () => {
      done = true
      return 'mine'
    })
    await sleep(150)
    t.false(done)
    t.true(await holder.release())
    t.is(await waiting, 'mine')
    t.false(await waiter.isOwned(), 'block(seconds, fn) releases after fn')

    t.true(await holder.acquire())
    const error = await t.throwsAsync(storeLock(store, name, { seconds: 30 }).block(0.3), { instanceOf: LockTimeoutError })
    t.is((error as LockTimeoutError).code, 'E_LOCK_TIMEOUT')
    let called = false
    t.deepEqual(await storeLock(store, name, { seconds: 30 }).run(() => (called = true)), { acquired: false })
    t.false(called)
    await holder.release()
    t.deepEqual(await storeLock(store, name, { seconds: 30 }).run(() => 42), { acquired: true, value: 42 })
    t.true(await storeLock(store, name, { seconds: 30 }).acquire(), 'run() released the lock')
  })

  test(`${driver}: a lock needs seconds above 0 (E_LOCK_OPTIONS)`, async (t) => {
    const store = await open(t)
    for (const seconds of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      t.like(
        t.throws(() => storeLock(store, 'x', { seconds })),
        { code: 'E_LOCK_OPTIONS' },
      )
  })
}

/** A store of `config` in a new app of its own, closed after the test. */
export async function openStore(t: { teardown(fn: () => unknown): void }, config: Record<string, unknown>): Promise<Storage> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { storage: { default: 'main', stores: { main: config } } } })
  t.teardown(() => app.close())
  return app.service('storage').store()
}

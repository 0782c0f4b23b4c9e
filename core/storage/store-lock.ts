import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Storage } from 'unstorage'
import { KilnError } from '../support/errors.ts'

/**
 * Who can see a store's locks: this process only (`memory`), the processes
 * of one machine (`fs`), or every machine that reaches the store (`redis`).
 *
 * @example
 * ```ts
 * const shared: boolean = lockScope(store) === 'machines'
 * ```
 */
export type LockScope = 'process' | 'machine' | 'machines'

/**
 * What a store offers for locks: a named lock taken atomically with an
 * expiry and an owner, released only by its owner. Drivers implement it;
 * applications use {@link storeLock}.
 *
 * @example
 * ```ts
 * const locks: StoreLocks = memoryLocks()
 * await locks.acquire('reports', 'owner-1', 10_000) // true
 * ```
 */
export interface StoreLocks {
  readonly scope: LockScope
  /** Takes `name` for `owner` for `ms` milliseconds unless someone holds it (an expired lock is free). */
  acquire(name: string, owner: string, ms: number): Promise<boolean>
  /** Frees `name` if `owner` holds it; false otherwise (someone else's lock, or none). */
  release(name: string, owner: string): Promise<boolean>
  /** Frees `name` whoever holds it. */
  forceRelease(name: string): Promise<void>
  /** The owner holding `name` now, or null. */
  holder(name: string): Promise<string | null>
}

/**
 * Where a store made by the kernel's drivers keeps its {@link StoreLocks}.
 *
 * @example
 * ```ts
 * const locks = (store as unknown as Record<symbol, StoreLocks | undefined>)[STORE_LOCKS]
 * ```
 */
export const STORE_LOCKS = Symbol.for('kiln.storage.locks')

/**
 * Gives a store its locks (the kernel's `memory`, `fs` and `redis` drivers
 * do it for every store they make); a plugin's driver can do the same.
 *
 * @example
 * ```ts
 * const store = withLocks(createStorage({ driver }), memoryLocks())
 * ```
 */
export function withLocks(store: Storage, locks: StoreLocks): Storage {
  Object.defineProperty(store, STORE_LOCKS, { value: locks })
  return store
}

function locksOf(store: Storage): StoreLocks | undefined {
  return (store as unknown as { [STORE_LOCKS]?: StoreLocks })[STORE_LOCKS]
}

/**
 * Who can see the locks of `store`: `'machines'` for a store shared between
 * machines (`redis`), `'machine'` for one machine's processes (`fs`),
 * `'process'` for this process only (`memory`); undefined when its driver
 * has no locks.
 *
 * @example
 * ```ts
 * if (lockScope(Storage.store('cache')) !== 'machines') console.warn('CACHE_STORE=redis shares locks between servers')
 * ```
 */
export function lockScope(store: Storage): LockScope | undefined {
  return locksOf(store)?.scope
}

/**
 * Options of {@link storeLock}.
 *
 * @example
 * ```ts
 * const options: LockOptions = { seconds: 60, owner: job.lockOwner }
 * ```
 */
export interface LockOptions {
  /** How long the lock lasts once taken: it expires by itself after that, so a crashed holder does not keep it. */
  seconds: number
  /** Restores a lock taken elsewhere (another request, a job) to release it: its `lock.owner`. Random by default. */
  owner?: string
}

/**
 * `lock.block()` waited its whole time and someone else still holds the lock.
 *
 * @example
 * ```ts
 * try { await lock.block(5) } catch (error) { if (error instanceof LockTimeoutError) ... }
 * ```
 */
export class LockTimeoutError extends KilnError {
  constructor(name: string, seconds: number) {
    super(`The lock "${name}" was still held by someone else after ${seconds} s.`, { code: 'E_LOCK_TIMEOUT' })
    this.name = 'LockTimeoutError'
  }
}

/**
 * A named lock in a store (Laravel's `Cache::lock`): `acquire()` takes it
 * atomically, for `seconds` at most, and only its owner releases it. Made
 * by {@link storeLock}.
 *
 * @example
 * ```ts
 * const lock = storeLock(Storage.store('cache'), 'invoices:send', { seconds: 120 })
 * if (await lock.acquire()) {
 *   try { await sendInvoices() } finally { await lock.release() }
 * }
 * ```
 */
export class Lock {
  /** The owner token: pass it as `owner` to release this lock from elsewhere. */
  readonly owner: string
  /** How long the lock lasts once taken. */
  readonly seconds: number

  constructor(
    private readonly locks: StoreLocks,
    readonly name: string,
    options: LockOptions,
  ) {
    if (!(typeof options.seconds === 'number' && options.seconds > 0 && Number.isFinite(options.seconds)))
      throw new KilnError(`The lock "${name}" needs a number of seconds above 0 (it expires by itself after them), got ${String(options.seconds)}.`, {
        code: 'E_LOCK_OPTIONS',
      })
    this.seconds = options.seconds
    this.owner = options.owner ?? randomBytes(16).toString('hex')
  }

  /** Who sees this lock: see {@link lockScope}. @example `lock.scope // 'machines'` */
  get scope(): LockScope {
    return this.locks.scope
  }

  /** Takes the lock if it is free: true when this owner now holds it. @example `if (await lock.acquire()) ...` */
  acquire(): Promise<boolean> {
    return this.locks.acquire(this.name, this.owner, Math.max(1, Math.ceil(this.seconds * 1000)))
  }

  /** Frees the lock if this owner holds it: false when it had expired or someone else holds it. @example `await lock.release()` */
  release(): Promise<boolean> {
    return this.locks.release(this.name, this.owner)
  }

  /** Frees the lock whoever holds it. @example `await storeLock(cache, 'imports', { seconds: 60 }).forceRelease()` */
  forceRelease(): Promise<void> {
    return this.locks.forceRelease(this.name)
  }

  /** Whether this owner holds the lock now. @example `await lock.isOwned()` */
  async isOwned(): Promise<boolean> {
    return (await this.locks.holder(this.name)) === this.owner
  }

  /**
   * Takes the lock, runs `fn` and releases it (Laravel's `get(callback)`):
   * `{ acquired: false }` without running `fn` when someone else holds it.
   *
   * @example
   * ```ts
   * const { acquired } = await storeLock(cache, 'sitemap', { seconds: 300 }).run(() => buildSitemap())
   * ```
   */
  async run<T>(fn: () => T | Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
    if (!(await this.acquire())) return { acquired: false }
    try {
      return { acquired: true, value: await fn() }
    } finally {
      await this.release()
    }
  }

  /**
   * Waits up to `seconds` for the lock, trying again every 100 ms or so;
   * throws {@link LockTimeoutError} when it stays taken. With `fn`, runs it
   * and releases the lock.
   *
   * @example
   * ```ts
   * await storeLock(cache, 'stock:42', { seconds: 10 }).block(5, () => reserve(42))
   * ```
   */
  async block(seconds: number): Promise<true>
  async block<T>(seconds: number, fn: () => T | Promise<T>): Promise<T>
  async block<T>(seconds: number, fn?: () => T | Promise<T>): Promise<T | true> {
    const deadline = Date.now() + seconds * 1000
    while (!(await this.acquire())) {
      if (Date.now() >= deadline) throw new LockTimeoutError(this.name, seconds)
      // Some jitter, so waiters on one lock do not all ask at the same instant.
      await sleep(Math.min(75 + Math.random() * 50, Math.max(0, deadline - Date.now())))
    }
    if (!fn) return true
    try {
      return await fn()
    } finally {
      await this.release()
    }
  }
}

/**
 * A named lock in a store (Laravel's `Cache::lock(name, seconds)`): taken
 * atomically, with an expiry and an owner, released only by its owner. On
 * a `redis` store it holds across every process and machine (`SET NX` with
 * an expiry); on an `fs` store across the processes of one machine; on a
 * `memory` store within this process. {@link lockScope} tells which.
 * While Redis is down, its operations fail fast with a 503.
 *
 * @example
 * ```ts
 * const lock = storeLock(Storage.store('cache'), 'reports:nightly', { seconds: 600 })
 * if (await lock.acquire()) {
 *   try { await buildReports() } finally { await lock.release() }
 * }
 * ```
 */
export function storeLock(store: Storage, name: string, options: LockOptions): Lock {
  const locks = locksOf(store)
  if (!locks)
    throw new KilnError(`This store's driver has no locks: use a store on the memory, fs or redis driver for the lock "${name}".`, {
      code: 'E_LOCK_UNSUPPORTED',
    })
  return new Lock(locks, name, options)
}

/**
 * Locks kept in this process (the `memory` store's): atomic because
 * JavaScript runs one thing at a time.
 *
 * @example
 * ```ts
 * withLocks(createStorage({ driver: memoryDriver() }), memoryLocks())
 * ```
 */
export function memoryLocks(): StoreLocks {
  const held = new Map<string, { owner: string; until: number }>()
  const current = (name: string) => {
    const lock = held.get(name)
    if (lock && lock.until <= Date.now()) held.delete(name)
    return held.get(name)
  }
  return {
    scope: 'process',
    acquire: async (name, owner, ms) => {
      if (current(name)) return false
      held.set(name, { owner, until: Date.now() + ms })
      return true
    },
    release: async (name, owner) => current(name)?.owner === owner && held.delete(name),
    forceRelease: async (name) => void held.delete(name),
    holder: async (name) => current(name)?.owner ?? null,
  }
}

import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { Application } from '../application/application.ts'
import { fsLocks } from '../storage/fs-locks.ts'
import { Lock, lockScope, storeLock } from '../storage/store-lock.ts'
import { KilnError } from '../support/errors.ts'
import type { Schedule, ScheduledTask } from './schedule.ts'

/**
 * The store of config/storage.ts whose locks `onOneServer()` and a shared `withoutOverlapping()` take.
 *
 * @example
 * ```ts
 * app.service('storage').store(CACHE_STORE)
 * ```
 */
export const CACHE_STORE = 'cache'

/**
 * How long a server's claim on a task's minute lasts: long past the minute,
 * so a server whose `schedule:run` starts late (a slow boot, a clock a little
 * behind) still finds it, as Laravel keeps its claim an hour.
 */
const CLAIM_SECONDS = 3600

/**
 * Why a due task did not run in this `schedule:run`.
 *
 * @example
 * ```ts
 * const reason: SkipReason = 'other-server'
 * ```
 */
export type SkipReason = 'overlapping' | 'other-server'

/**
 * A name per task that every server running the same schedule agrees on:
 * its expression, its label and, for tasks alike in both (two undescribed
 * closures on one expression), its place among them.
 *
 * @example
 * ```ts
 * const keys = taskKeys(schedule)
 * keys.get(schedule.tasks[0]) // 'c0ffee...'
 * ```
 */
export function taskKeys(schedule: Schedule): Map<ScheduledTask, string> {
  const seen = new Map<string, number>()
  const keys = new Map<ScheduledTask, string>()
  for (const task of schedule.tasks) {
    const base = `${task.expression}|${task.label}`
    const nth = seen.get(base) ?? 0
    seen.set(base, nth + 1)
    keys.set(task, createHash('sha256').update(`${base}|${nth}`).digest('hex').slice(0, 24))
  }
  return keys
}

type LockMaker = (name: string, seconds: number) => Lock

/** A maker of locks in the cache store when they hold across machines, else the reason they do not. */
function sharedLocks(app: Application): { lock: LockMaker; problem?: undefined } | { lock?: undefined; problem: string } {
  const storage = app.service('storage')
  if (!storage.stores.connectionNames().includes(CACHE_STORE)) return { problem: `config/storage.ts has no "${CACHE_STORE}" store` }
  const store = storage.store(CACHE_STORE)
  const scope = lockScope(store)
  if (scope === 'machines') return { lock: (name, seconds) => storeLock(store, name, { seconds }) }
  const driver = app.config.get<string>(`storage.stores.${CACHE_STORE}.driver`, '?')
  const reach = scope === 'machine' ? 'hold on one machine only' : scope === 'process' ? 'hold in one process only' : 'do not exist'
  return { problem: `the "${CACHE_STORE}" store of config/storage.ts uses the "${driver}" driver, whose locks ${reach}` }
}

/**
 * Checks that `onOneServer()` tasks have a cache store shared between
 * machines. In production a store that is not (memory, files) is refused:
 * each server would run the tasks, silently. Throws a `KilnError` with code
 * `E_SCHEDULE_STORE_NOT_SHARED` naming the setting. Elsewhere (development,
 * tests: one machine, often no Redis) the tasks run once per machine, on
 * lock files under `storage/framework/schedule/`, and the returned warning
 * says so.
 *
 * @example
 * ```ts
 * const warning = assertOneServerStore(app, await loadSchedule(app))
 * if (warning) io.warn(warning)
 * ```
 */
export function assertOneServerStore(app: Application, schedule: Schedule): string | undefined {
  const tasks = schedule.tasks.filter((task) => task.oneServer)
  if (tasks.length === 0) return undefined
  const { problem } = sharedLocks(app)
  if (!problem) return undefined
  const names = tasks.map((task) => `"${task.label}"`).join(', ')
  const message = `onOneServer() (${names}) needs a cache store shared by every server, and ${problem}. Set CACHE_STORE=redis (or give the "${CACHE_STORE}" store the redis driver).`
  if (app.environment === 'production') throw new KilnError(message, { code: 'E_SCHEDULE_STORE_NOT_SHARED' })
  return `${message} Outside production these tasks run once per machine.`
}

/**
 * Takes what a due task needs before it runs: with `onOneServer()`, the
 * claim on this task and this minute in the cache store (kept until it
 * expires, so a server that starts later in the minute skips too); with
 * `withoutOverlapping()`, the task's running lock, in the cache store when
 * it is shared, else a lock file under `storage/framework/schedule/`.
 * Returns why the task must be skipped, or the function that releases the
 * running lock after the run. A store that cannot be reached throws
 * (`E_SCHEDULE_LOCK_UNAVAILABLE`): the task fails, it does not run.
 *
 * @example
 * ```ts
 * const taken = await lockTask(app, task, key, new Date(), running)
 * if (typeof taken === 'function') try { await run() } finally { await taken() }
 * ```
 */
export async function lockTask(
  app: Application,
  task: ScheduledTask,
  key: string,
  at: Date,
  running: Set<ScheduledTask>,
): Promise<SkipReason | (() => Promise<void>)> {
  if (task.overlapMinutes === undefined && !task.oneServer) return async () => {}
  if (task.overlapMinutes !== undefined && running.has(task)) return 'overlapping'
  const shared = sharedLocks(app)
  if (task.oneServer) {
    if (!shared.lock && app.environment === 'production')
      throw new KilnError(`onOneServer() needs a cache store shared by every server, and ${shared.problem}. Set CACHE_STORE=redis.`, {
        code: 'E_SCHEDULE_STORE_NOT_SHARED',
      })
    // The minute as UTC: servers in different time zones still name the same minute alike.
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString().slice(0, 16)
    const claim = `schedule:${key}:${minute}`
    // Outside production, without a shared store: once per machine (assertOneServerStore warned).
    const lock = shared.lock ? shared.lock(claim, CLAIM_SECONDS) : machineLock(app, claim, CLAIM_SECONDS)
    if (!(await take(lock, 'onOneServer'))) return 'other-server'
  }
  if (task.overlapMinutes === undefined) return async () => {}
  const name = `schedule:${key}:running`
  // Expires by itself after the task's minutes: a run that crashed does not keep the task from running again.
  const seconds = task.overlapMinutes * 60
  const lock = shared.lock ? shared.lock(name, seconds) : machineLock(app, name, seconds)
  if (!(await take(lock, 'withoutOverlapping'))) return 'overlapping'
  running.add(task)
  return async () => {
    running.delete(task)
    // A store gone down meanwhile leaves the lock to expire.
    await lock.release().catch(() => {})
  }
}

/** A lock file under storage/framework/schedule/: held against every process of this machine. */
function machineLock(app: Application, name: string, seconds: number): Lock {
  return new Lock(fsLocks(join(app.root, 'storage/framework/schedule')), name, { seconds })
}

async function take(lock: Lock, why: string): Promise<boolean> {
  try {
    return await lock.acquire()
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    const reason = cause instanceof Error ? cause.message : (error as Error).message
    throw new KilnError(`the "${CACHE_STORE}" store is unavailable, so the lock of ${why}() was not taken and the task did not run (${reason})`, {
      code: 'E_SCHEDULE_LOCK_UNAVAILABLE',
      cause: error,
    })
  }
}

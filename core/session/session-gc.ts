import { resolve } from 'node:path'
import type { Storage } from 'unstorage'
import type { Application } from '../application/application.ts'
import { defineCommand } from '../cli/define-command.ts'
import type { SessionConfig } from './session-config.ts'
import { sessionStore } from './session-stores.ts'
import { SessionRecords } from './session-records.ts'
import { directoryCursor, keyListCursor, memoryCursor, type SweepCursor } from './sweep-cursors.ts'

/**
 * Removes expired sessions (and ended ones past their expiry) from the app's
 * session store; returns how many. Redis expires keys itself, so it is
 * skipped there.
 *
 * @example
 * ```ts
 * const removed = await collectSessionGarbage(app)
 * ```
 */
export async function collectSessionGarbage(app: Application): Promise<number> {
  if (storeExpiresItself(app)) return 0
  const config = app.config.get<SessionConfig>('session')
  return new SessionRecords(sessionStore(app), config.lifetime * 60).sweep()
}

/**
 * One step of the lottery's sweep: looks at no more than
 * `session.sweep_limit` records (the next ones after where the previous
 * step stopped) and removes those that expired, so its work does not grow
 * with the number of sessions. Steps go round the whole store, so every
 * expired session goes eventually. Resolves to how many records it looked
 * at and how many it removed; Redis expires keys itself (nothing to do).
 *
 * @example
 * ```ts
 * const { examined, removed } = await sweepExpiredSessions(app)
 * ```
 */
export async function sweepExpiredSessions(app: Application): Promise<{ examined: number; removed: number }> {
  if (storeExpiresItself(app)) return { examined: 0, removed: 0 }
  const config = app.config.get<SessionConfig>('session')
  const store = sessionStore(app)
  const records = new SessionRecords(store, config.lifetime * 60)
  const now = Date.now()
  const { examined, candidates } = await cursorOf(app, store).next(config.sweep_limit, { now, lifetimeMs: config.lifetime * 60_000 })
  // Each removal takes its own id's lock, so they can run side by side.
  const removed = (await Promise.all(candidates.map((key) => records.removeIfExpired(key, now)))).filter(Boolean).length
  return { examined, removed }
}

/**
 * Runs one sweep step on `session.lottery` of requests, after the
 * response, like Laravel's lottery. Never fails a request.
 *
 * @example
 * ```ts
 * maybeCollectSessionGarbage(ctx.app)
 * ```
 */
export function maybeCollectSessionGarbage(app: Application): void {
  const [chances, outOf] = app.config.get<SessionConfig['lottery']>('session.lottery', [2, 100])
  if (chances <= 0 || Math.random() * outOf >= chances || storeExpiresItself(app) || SWEEPING.has(app)) return
  // One sweep at a time per app: on a busy server several requests win the lottery at once.
  SWEEPING.add(app)
  setImmediate(() => {
    sweepExpiredSessions(app)
      .catch((error: unknown) => app.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Could not sweep expired sessions'))
      .finally(() => SWEEPING.delete(app))
  })
}

const SWEEPING = new WeakSet<Application>()
const CURSORS = new WeakMap<Storage, SweepCursor>()

/** The store's cursor, kept between steps: the memory driver's Map, the fs store's folder, or else its key list. */
function cursorOf(app: Application, store: Storage): SweepCursor {
  let cursor = CURSORS.get(store)
  if (cursor) return cursor
  const name = app.config.get<string>('session.driver')
  const settings = app.config.get<{ driver?: string; base?: string }>(`session.stores.${name}`, {})
  const instance = (store as Partial<Pick<Storage, 'getMount'>>).getMount?.('').driver.getInstance?.()
  if (settings.driver === 'memory' && instance instanceof Map) cursor = memoryCursor(instance as Map<string, unknown>)
  // The same folder the fs driver resolves (core/storage/unstorage-drivers.ts).
  else if (settings.driver === 'fs') cursor = directoryCursor(resolve(app.root, settings.base ?? 'storage/app'))
  else cursor = keyListCursor(store)
  CURSORS.set(store, cursor)
  // The fs cursor holds its folder open between steps.
  app.terminating(() => cursor.close())
  return cursor
}

function storeExpiresItself(app: Application): boolean {
  const driver = app.config.get<string>('session.driver')
  return app.config.get<string | undefined>(`session.stores.${driver}.driver`) === 'redis'
}

/**
 * `kiln session:gc`: sweeps expired sessions now and says how many went.
 *
 * @example
 * ```sh
 * kiln session:gc   # Removed 42 expired sessions.
 * ```
 */
export const sessionGcCommand = defineCommand({
  name: 'session:gc',
  description: 'Remove expired sessions from the session store',
  examples: ['kiln session:gc'],
  async run({ app, info }) {
    if (storeExpiresItself(app)) {
      info('Sessions live in Redis, which expires them itself: nothing to sweep.')
      return 0
    }
    const removed = await collectSessionGarbage(app)
    info(`Removed ${removed} expired session${removed === 1 ? '' : 's'}.`)
    return 0
  },
})

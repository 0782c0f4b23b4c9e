import type { Application } from '../application/application.ts'
import { defineCommand } from '../cli/define-command.ts'
import type { SessionConfig } from './session-config.ts'
import { sessionStore } from './session-stores.ts'
import { SessionRecords } from './session-records.ts'

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
 * Runs the garbage collector on `session.lottery` of requests, after the
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
    collectSessionGarbage(app)
      .catch((error: unknown) => app.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Could not sweep expired sessions'))
      .finally(() => SWEEPING.delete(app))
  })
}

const SWEEPING = new WeakSet<Application>()

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

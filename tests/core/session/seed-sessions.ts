import { utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { randomId, sessionStore, type Application } from '../../../core/index.ts'

/**
 * Writes session records straight into the app's store, as earlier visitors
 * would have left them: `expired` of them written more than the lifetime
 * ago (on files, with that modification time too), the rest live, mixed.
 * Resolves to the ids of each kind.
 *
 * @example
 * ```ts
 * const { live, expired } = await seedSessions(app, 150, 100)
 * ```
 */
export async function seedSessions(app: Application, live: number, expired: number): Promise<{ live: string[]; expired: string[] }> {
  const store = sessionStore(app)
  const lifetimeMs = app.config.get<number>('session.lifetime') * 60_000
  const ids = { live: [] as string[], expired: [] as string[] }
  for (let i = 0; i < live + expired; i++) {
    const old = ids.expired.length < expired && (i % 2 === 1 || ids.live.length === live)
    const id = randomId()
    const written = Date.now() - (old ? lifetimeMs + 60_000 : 0)
    await store.setItem(id, { data: { visit: i }, expires_at: written + lifetimeMs })
    if (old && app.config.get('session.driver') === 'fs') {
      const when = new Date(written)
      await utimes(join(app.root, 'storage/framework/sessions', id), when, when)
    }
    ids[old ? 'expired' : 'live'].push(id)
  }
  return ids
}

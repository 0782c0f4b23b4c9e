/**
 * P7 `sessions`: what a `web` request costs as the session store fills.
 * Cookie-less GETs to a `web` route (each one a new visitor, as a crawler or
 * an attacker sends them), with the store holding 10,000 sessions, then
 * 100,000, on the memory and fs stores, with the default lottery (2
 * requests in 100 sweep) and `sweep_limit`. A quarter of the sessions have
 * expired, as in a store that has been swept now and then. Prints the
 * server's CPU µs per request at each size and their ratio; the goal is at
 * most 1.2. The sessions are written straight into the store (real session
 * records, as earlier visitors would have left them; on files, the expired
 * ones with the modification time they would have), so filling it costs no
 * HTTP time. `npm run bench -- sessions` runs it alone.
 */
import { rmSync } from 'node:fs'
import { utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { createApp, randomId, sessionStore, type Application } from '../core/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { cannon, type CannonResult } from './autocannon.ts'

const SIZES = [10_000, 100_000]
const EXPIRED_SHARE = 0.25
const ROUNDS = 5
const GOAL = 1.2

export async function sessionGrowth(): Promise<void> {
  for (const driver of ['memory', 'fs']) await growthOn(driver)
}

async function growthOn(driver: string): Promise<void> {
  const root = tempApp()
  const app = await createApp({ root, env: { APP_ENV: 'test' }, config: { session: { driver }, logging: { level: 'silent' } } })
  app.router.group({ middleware: ['web'] }, () => app.router.get('/page', () => ({ ok: true })))
  const server = await app.listen({ port: 0 })
  const url = `${server.url}/page`
  try {
    const micros: number[] = []
    let seeded = 0
    for (const size of SIZES) {
      seeded = await seed(app, seeded, size)
      await cannon(url, { seconds: 1 })
      const rounds: CannonResult[] = []
      for (let i = 0; i < ROUNDS; i++) rounds.push(await cannon(url, { seconds: 3 }))
      const median = rounds.sort((a, b) => a.cpuMicrosPerRequest - b.cpuMicrosPerRequest)[Math.floor(ROUNDS / 2)]!
      const failed = rounds.find((round) => round.non2xx || round.errors)
      if (failed) throw new Error(`P7 ${driver}: ${failed.non2xx} non-2xx answers, ${failed.errors} errors`)
      micros.push(median.cpuMicrosPerRequest)
      const held = (await sessionStore(app).getKeys()).length
      console.log(
        `P7 sessions (${driver}): ${size.toLocaleString('en')} sessions seeded (${EXPIRED_SHARE * 100}% expired), ${held.toLocaleString('en')} in the store after the run: ` +
          `${median.rps} req/s, p99 ${median.p99} ms, ${median.cpuMicrosPerRequest} µs CPU/req (rounds: ${rounds.map((round) => round.cpuMicrosPerRequest).join(', ')})`,
      )
    }
    const ratio = micros.at(-1)! / micros[0]!
    console.log(
      `P7 sessions (${driver}): CPU per request at ${SIZES.at(-1)!.toLocaleString('en')} against ${SIZES[0]!.toLocaleString('en')} sessions: ${ratio.toFixed(2)}× (goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
    )
  } finally {
    await app.close()
    rmSync(root, { recursive: true, force: true })
  }
}

/**
 * Writes sessions `from` up to `to`, 500 at a time: `EXPIRED_SHARE` of them
 * last written more than the lifetime ago, the rest just now. Sessions that
 * the requests of a run add or the sweep removes are not made up for: the
 * requests store nothing, and the sweep takes only expired ones.
 */
async function seed(app: Application, from: number, to: number): Promise<number> {
  const store = sessionStore(app)
  const lifetimeMs = app.config.get<number>('session.lifetime') * 60_000
  const folder = app.config.get<string>('session.driver') === 'fs' ? join(app.root, app.config.get<string>('session.stores.fs.base')) : undefined
  for (let done = from; done < to;) {
    const batch = Math.min(500, to - done)
    await Promise.all(
      Array.from({ length: batch }, async (_, i) => {
        const expired = (done + i) % Math.round(1 / EXPIRED_SHARE) === 0
        const written = Date.now() - (expired ? lifetimeMs + 60_000 : 0)
        const id = randomId()
        await store.setItem(id, { data: { cart: [done + i], _token: randomId() }, expires_at: written + lifetimeMs })
        if (expired && folder) await utimes(join(folder, id), new Date(written), new Date(written))
      }),
    )
    done += batch
  }
  return to
}

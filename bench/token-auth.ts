/**
 * P1: the cost of personal access token auth. `GET /user` with a valid
 * Bearer token (parse, CRC check, the token joined with its user in one
 * prepared query, constant-time hash compare) against the same JSON from an
 * unauthenticated route of the same app, over a real listening server. The
 * requests carry 64 users' tokens in turn, as a real API's clients would:
 * without and with the verified-token cache (`tok.cache`), on SQLite, then
 * on PostgreSQL (`DATABASE_URL`, its own schema; skipped when it does not
 * answer). The issue judges it on the server's CPU per request, token over
 * unauthenticated: ≤ 1.5× without the cache, ≤ 1.3× with it (on a 2-core
 * machine the socket-level ratio mostly measures the load generator's
 * wake-ups). The req/s ratio is printed too, with its older goals.
 */
import { fileURLToPath } from 'node:url'
import { Migrator, runWithApp, type Application } from '../core/index.ts'
import { createTestApp, refreshDatabase } from '../core/testing/index.ts'
import seed from '../app-template/database/seeders/index.ts'
import { User } from '../app-template/app/models/user.ts'
import { compare, report } from './measure.ts'

const CACHE = { tok: { cache: { enabled: true } } }
const TOKENS = 64

export async function tokenAuth(): Promise<void> {
  await tokenAuthOn('sqlite', 'no cache', 0.7, 1.5)
  await tokenAuthOn('sqlite', 'cache', 0.85, 1.3, CACHE)
  // Its own schema, so the bench never touches a database's other tables.
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('CREATE SCHEMA IF NOT EXISTS kiln_bench')
  } catch (error) {
    console.log(`P1 on PostgreSQL skipped: ${(error as Error).message}`)
    return
  } finally {
    await client.end().catch(() => {})
  }
  const database = { database: { connections: { pgsql: { url, schema: 'kiln_bench' } } } }
  await tokenAuthOn('pgsql', 'no cache', 0.7, 1.5, database)
  await tokenAuthOn('pgsql', 'cache', 0.85, 1.3, { ...database, ...CACHE })
}

async function tokenAuthOn(connection: 'sqlite' | 'pgsql', label: string, goal: number, cpuGoal: number, config: Record<string, unknown> = {}): Promise<void> {
  const root = fileURLToPath(new URL('../app-template/', import.meta.url))
  const app = await createTestApp({ root, env: { DB_CONNECTION: connection }, config: { ...config, logging: { level: 'silent' } } })
  await migrated(app, connection)
  const { tokens, json } = await runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    return { tokens: await tokensOfUsers(user), json: user.toDict() }
  })
  app.router.group({ middleware: ['api'] }, () => app.router.get('/user-open', () => json))
  const server = await app.listen({ port: 0 })
  try {
    // Both sides send the same rotating headers; the open route ignores the token.
    const headerSets = tokens.map((token) => ({ authorization: `Bearer ${token}`, accept: 'application/json' }))
    const { kiln, baseline, ratio } = await compare(`${server.url}/user`, `${server.url}/user-open`, {
      kilnHeaderSets: headerSets,
      baselineHeaderSets: headerSets,
    })
    report(`P1 tok (${connection}, ${label}): GET /user with a Bearer token vs the same JSON unauthenticated`, kiln, baseline, ratio, goal)
    const cpu = kiln.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest
    console.log(`  server CPU per request, token over unauthenticated: ${cpu.toFixed(2)}× (goal ≤ ${cpuGoal}×: ${cpu <= cpuGoal ? 'met' : 'NOT met'})`)
  } finally {
    await app.close()
  }
}

/** One token each for `user` and 63 more users: requests of a real API carry many tokens, and a cache or a batch of one token would flatter. */
async function tokensOfUsers(user: User): Promise<string[]> {
  const tokens = [(await user.createToken('bench')).plainTextToken]
  for (let i = 1; i < TOKENS; i++) {
    const other = new User()
    other.fill({ name: `Bench user ${i}`, email: `bench-${i}@example.com` })
    // Never logs in: a password hash would only slow the setup.
    other.setAttribute('password', '!')
    await other.save()
    tokens.push((await other.createToken('bench')).plainTextToken)
  }
  return tokens
}

/** SQLite: a fresh in-memory database. PostgreSQL: the bench schema, emptied and migrated (refreshDatabase would switch to SQLite). */
async function migrated(app: Application, connection: 'sqlite' | 'pgsql'): Promise<void> {
  if (connection === 'sqlite') await refreshDatabase(app)
  else await new Migrator(app).fresh()
}

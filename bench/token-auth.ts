/**
 * P1: the cost of personal access token auth. `GET /user` with a valid
 * Bearer token (parse, CRC check, one indexed lookup, constant-time hash
 * compare, the user by key) against the same JSON from an unauthenticated
 * route of the same app, both over a real listening server, on SQLite and
 * then on PostgreSQL (`DATABASE_URL`, skipped when it does not answer).
 * Goals: 0.85 on SQLite, 0.7 on PostgreSQL (a network hop per request).
 */
import { fileURLToPath } from 'node:url'
import { runWithApp } from '../core/index.ts'
import { createTestApp, refreshDatabase } from '../core/testing/index.ts'
import seed from '../app-template/database/seeders/index.ts'
import { User } from '../app-template/app/models/user.ts'
import { compare, report } from './measure.ts'

export async function tokenAuth(): Promise<void> {
  await tokenAuthOn('sqlite', 0.85)
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
  await tokenAuthOn('pgsql', 0.7, { database: { connections: { pgsql: { url, schema: 'kiln_bench' } } } })
}

async function tokenAuthOn(connection: 'sqlite' | 'pgsql', goal: number, config: Record<string, unknown> = {}): Promise<void> {
  const root = fileURLToPath(new URL('../app-template/', import.meta.url))
  const app = await createTestApp({ root, env: { DB_CONNECTION: connection }, config: { ...config, logging: { level: 'silent' } } })
  await refreshDatabase(app)
  const { token, json } = await runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    return { token: (await user.createToken('bench')).plainTextToken, json: user.toDict() }
  })
  app.router.group({ middleware: ['api'] }, () => app.router.get('/user-open', () => json))
  const server = await app.listen({ port: 0 })
  try {
    const { kiln, baseline, ratio } = await compare(`${server.url}/user`, `${server.url}/user-open`, { kilnHeaders: { authorization: `Bearer ${token}`, accept: 'application/json' }, baselineHeaders: { accept: 'application/json' } })
    report(`P1 tok (${connection}): GET /user with a Bearer token vs the same JSON unauthenticated`, kiln, baseline, ratio, goal)
  } finally {
    await app.close()
  }
}

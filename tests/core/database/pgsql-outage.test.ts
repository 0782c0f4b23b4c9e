import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import test from 'ava'
import { sql } from 'kysely'
import { createApp, Migrator, runWithApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { Author } from '../../fixtures/database.ts'

const target = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')

/** A TCP proxy in front of the real PostgreSQL that can be taken down (refusing, cutting open connections) and brought back on the same port. */
async function pgProxy(t: { teardown(fn: () => unknown): void }) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const start = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => socket.destroy())
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port
        resolve()
      })
    })
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server!.close(() => resolve())
    })
  await start()
  t.teardown(() => (server?.listening ? stop() : undefined))
  return { port: () => port, start, stop }
}

const migration = `
import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('authors').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('email', 'varchar(255)')
    .addColumn('secret', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
}
`

test('PostgreSQL going away: no crash, a fast 503 JSON, one warning for the outage, and service again once it is back', async (t) => {
  const proxy = await pgProxy(t)
  const schema = `kiln_test_${randomBytes(5).toString('hex')}`
  const root = tempApp({ 'database/migrations/0001_authors.ts': migration })
  const url = new URL(target)
  url.port = String(proxy.port())
  const app = await createApp({
    root,
    env: { APP_ENV: 'test' },
    config: {
      database: { default: 'main', connections: { main: { driver: 'pgsql', url: url.toString(), schema } } },
      logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/pgsql.log' } },
    },
  })
  const db = app.service('db')
  await sql.raw(`CREATE SCHEMA ${schema}`).execute((await db.connection('main')).kysely)
  t.teardown(async () => {
    await sql
      .raw(`DROP SCHEMA ${schema} CASCADE`)
      .execute((await db.connection('main')).kysely)
      .catch(() => {})
    await app.close()
  })
  await new Migrator(app).migrate()
  const ada = await runWithApp(app, () => Author.create({ name: 'Ada' }))
  app.router.get('/authors/{id}', ({ params }) => Author.findOrFail(params.id))
  const get = () => app.request(`/authors/${ada.id}`, { headers: { accept: 'application/json' } })
  t.is((await get()).status, 200)

  // Idle pooled connections are cut: pg reports that on the pool, which crashed the process when nobody listened.
  await proxy.stop()
  await sleep(100)
  for (let i = 0; i < 4; i++) {
    const started = Date.now()
    const res = await get()
    // A hang check, not a speed test.
    t.true(Date.now() - started < 3000, `request ${i} took ${Date.now() - started} ms`)
    t.is(res.status, 503)
    t.deepEqual(await res.json(), { message: 'The database is unavailable; try again shortly.' })
    t.true(Number(res.headers.get('retry-after')) >= 1)
  }

  await proxy.start()
  t.is((await get()).status, 200)
  await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute((await db.connection('main')).kysely)
  await app.close()
  const lines = readFileSync(join(root, 'storage/logs/pgsql.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string; connection?: string })
  const warnings = lines.filter((line) => line.level === 40)
  t.is(warnings.length, 1, JSON.stringify(warnings))
  t.regex(warnings[0]!.msg, /PostgreSQL is unreachable/)
  t.is(warnings[0]!.connection, 'main')
  t.true(lines.some((line) => /PostgreSQL is reachable again/.test(line.msg)))
  t.false(
    lines.some((line) => line.level >= 50),
    'no errors logged: the outage is not a server error',
  )
})

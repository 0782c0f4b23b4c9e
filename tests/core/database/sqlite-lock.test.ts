import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import Database from 'better-sqlite3'
import { Migrator, runWithApp, type Application } from '../../../core/index.ts'
import { createTestApp } from '../../../core/testing/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { User } from '../../../app-template/app/models/user.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

/** The starter app on a SQLite file of its own, migrated and seeded, with a token for the seeded user. */
async function starterOnFile(t: { teardown(fn: () => unknown): void }, config: Record<string, unknown> = {}) {
  const file = join(mkdtempSync(join(tmpdir(), 'kiln-lock-')), 'db.sqlite')
  const env = { DB_CONNECTION: 'sqlite', DB_DATABASE: file }
  const open = async (more: Record<string, unknown> = {}): Promise<Application> => {
    const app = await createTestApp({ root, env, config: { ...config, ...more } })
    t.teardown(() => app.close())
    return app
  }
  const app = await open()
  await new Migrator(app).migrate()
  const token = await runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    return (await user.createToken('cli')).plainTextToken
  })
  return { app, file, token, open }
}

const lastUsedAt = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare('SELECT last_used_at FROM personal_access_tokens').get() as { last_used_at: string | null }).last_used_at
  } finally {
    db.close()
  }
}

test('a file in rollback-journal mode, locked by another writer when the app first opens it: 503 JSON, and the app recovers once the lock goes', async (t) => {
  const { app: first, file, token, open } = await starterOnFile(t)
  await first.close()
  // Another program opened the file its own way (rollback journal) and holds the write lock: switching to WAL must wait.
  const other = new Database(file)
  t.teardown(() => other.close())
  other.pragma('journal_mode = DELETE')
  other.prepare('BEGIN IMMEDIATE').run()

  const log = join(dirname(file), 'app.log')
  const app = await open({ logging: { level: 'info', channels: ['file'], file: { path: log } } })
  const user = () => app.request('/user', { headers: { accept: 'application/json', authorization: `Bearer ${token}` } })
  for (let i = 0; i < 3; i++) {
    const locked = await user()
    t.is(locked.status, 503)
    t.deepEqual(await locked.json(), { message: 'The database is busy; try again shortly.' })
  }

  other.prepare('ROLLBACK').run()
  const free = await user()
  t.is(free.status, 200, 'the failed opening is not kept: the next request opens the database')
  t.is((await free.json()).email, 'test@example.com')
  const check = new Database(file)
  t.is(check.pragma('journal_mode', { simple: true }), 'wal', 'and it is in WAL mode from then on')
  check.close()
  await app.close()
  const lines = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string })
  t.deepEqual(
    lines.filter((line) => line.level >= 40).map((line) => line.msg),
    ['SQLite is locked by another writer and cannot be opened; requests get 503 until it is free'],
    'one warning for the whole spell',
  )
})

test('recording last_used_at while another writer holds the lock never stalls the server, even with a long busy timeout; it is recorded once the lock goes', async (t) => {
  // A busy timeout this long would freeze the process for 5 s if the bookkeeping write waited for the lock.
  const { app, file, token } = await starterOnFile(t, { database: { connections: { sqlite: { busy_timeout_ms: 5000 } } } })
  const server = await app.listen({ port: 0 })
  const user = () => fetch(`${server.url}/user`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } })
  const other = new Database(file)
  t.teardown(() => other.close())
  other.prepare('BEGIN IMMEDIATE').run()

  t.is((await user()).status, 200)
  // Over the time the guard takes to write last_used_at (after the response): a hang check, not a speed test.
  const started = Date.now()
  await sleep(1000)
  const health = await fetch(`${server.url}/health`, { headers: { accept: 'application/json' } })
  t.is(health.status, 200)
  const elapsed = Date.now() - started
  t.true(elapsed < 3000, `the event loop was held for ${elapsed - 1000} ms`)
  t.is(lastUsedAt(file), null, 'skipped while the database was locked')

  other.prepare('ROLLBACK').run()
  t.is((await user()).status, 200)
  for (let i = 0; i < 50 && lastUsedAt(file) === null; i++) await sleep(100)
  t.not(lastUsedAt(file), null, 'a skipped write is tried again at the next use')
})

test('writes while another writer holds the lock: each a quick 503 JSON, reads still answer, and the log gets one warning for the spell', async (t) => {
  const { app: first, file, token, open } = await starterOnFile(t)
  await first.close()
  const log = join(dirname(file), 'app.log')
  const app = await open({ logging: { level: 'info', channels: ['file'], file: { path: log } } })
  const issue = () =>
    app.request('/tok/token', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'test@example.com', password: 'password', device_name: 'phone' }),
    })
  t.is((await issue()).status, 201)
  const other = new Database(file)
  t.teardown(() => other.close())
  other.prepare('BEGIN IMMEDIATE').run()
  for (let i = 0; i < 3; i++) {
    const refused = await issue()
    t.is(refused.status, 503)
    t.deepEqual(await refused.json(), { message: 'The database is busy; try again shortly.' })
    t.is((await app.request('/user', { headers: { accept: 'application/json', authorization: `Bearer ${token}` } })).status, 200)
  }
  other.prepare('ROLLBACK').run()
  t.is((await issue()).status, 201)
  await app.close()
  const lines = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { level: number; msg: string })
  t.deepEqual(
    lines.filter((line) => line.level >= 40).map((line) => line.msg),
    ['SQLite is locked by another writer; writes get 503 until it is free'],
  )
  t.true(lines.some((line) => line.msg === 'SQLite takes writes again'))
})

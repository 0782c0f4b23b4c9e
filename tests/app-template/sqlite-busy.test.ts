import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import Database from 'better-sqlite3'
import { Migrator, runWithApp } from '../../core/index.ts'
import { createTestApp } from '../../core/testing/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { User } from '../../app-template/app/models/user.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

test('another writer holding the SQLite lock: reads and token auth still answer, writes get a quick 503 JSON, and all is well once the lock goes', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'kiln-busy-')), 'db.sqlite')
  const app = await createTestApp({ root, env: { DB_CONNECTION: 'sqlite', DB_DATABASE: file } })
  t.teardown(() => app.close())
  await new Migrator(app).migrate()
  const token = await runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    return (await user.createToken('cli')).plainTextToken
  })
  const server = await app.listen({ port: 0 })
  const call = async (path: string, init: RequestInit = {}) => {
    const started = Date.now()
    const res = await fetch(`${server.url}${path}`, { ...init, headers: { accept: 'application/json', 'content-type': 'application/json', ...init.headers } })
    return { status: res.status, body: await res.json(), ms: Date.now() - started }
  }
  const issue = () => call('/tok/token', { method: 'POST', body: JSON.stringify({ email: 'test@example.com', password: 'password', device_name: 'phone' }) })

  // Another process (here: another connection) takes the write lock and keeps it.
  const other = new Database(file)
  t.teardown(() => other.close())
  other.prepare('BEGIN IMMEDIATE').run()

  const user = await call('/user', { headers: { authorization: `Bearer ${token}` } })
  t.is(user.status, 200, 'a token request reads, and records last_used_at later, skipping the locked database')
  t.is(user.body.email, 'test@example.com')
  // Hang checks, not speed tests: the old busy timeout froze the whole process for 5 s per write.
  t.true(user.ms < 2000, `${user.ms} ms`)
  const refused = await issue()
  t.is(refused.status, 503)
  t.deepEqual(refused.body, { message: 'The database is busy; try again shortly.' })
  t.true(refused.ms < 2000, `${refused.ms} ms`)
  const health = await call('/health')
  t.is(health.status, 200)

  other.prepare('ROLLBACK').run()
  const issued = await issue()
  t.is(issued.status, 201)
})

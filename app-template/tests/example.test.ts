import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runWithApp } from 'kiln-framework'
import { createTestApp, refreshDatabase, TestClient } from 'kiln-framework/testing'
import seed from '../database/seeders/index.ts'

// The app's own folder: createTestApp boots it with APP_ENV=test, memory sessions and no .env key needed.
const root = fileURLToPath(new URL('../', import.meta.url))

test('the home page renders, and a seeded user trades a password for a token that GET /user accepts', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app) // a fresh in-memory SQLite database, migrated
  await runWithApp(app, () => seed())
  const client = new TestClient(app)

  const home = await client.get('/', { accept: 'text/html' })
  t.is(home.status, 200)
  t.regex(await home.text(), /Kiln is running/)

  const issued = await client.json('POST', '/tok/token', { email: 'test@example.com', password: 'password', device_name: 'tests' })
  t.is(issued.status, 201)
  const { token } = (await issued.json()) as { token: string }

  const me = await new TestClient(app).withHeaders({ authorization: `Bearer ${token}`, accept: 'application/json' }).get('/user')
  t.is(me.status, 200)
  t.like(await me.json(), { email: 'test@example.com', name: 'Test User' })
  t.is((await new TestClient(app).withHeaders({ accept: 'application/json' }).get('/user')).status, 401)
})

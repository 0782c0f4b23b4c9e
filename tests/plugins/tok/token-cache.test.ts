import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { Migrator, runWithApp, type Application } from '../../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../../core/testing/index.ts'
import { PersonalAccessToken } from '../../../plugins/tok/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { User } from '../../../app-template/app/models/user.ts'
import { DATABASE_URL, pgSchema } from '../../fixtures/pg-schema.ts'
import { freePort, redisServer } from '../../fixtures/redis-server.ts'
import { tokenCache } from '../../../plugins/tok/token-cache-registry.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const childScript = fileURLToPath(new URL('../../fixtures/token-cache-process.ts', import.meta.url))

/** The starter app with `/can/{ability}`; its user and that user's tokens come from `makeTokens`. */
async function cachedApp(t: ExecutionContext, env: Record<string, string>, config: Record<string, unknown>) {
  const app = await createTestApp({ root, env, config })
  t.teardown(() => app.close())
  app.router.group({ middleware: ['api'] }, () => {
    app.router.get('/can/{ability}', ({ request, params }) => ({ can: request.user<User>()!.tokenCan(String(params.ability)) })).middleware(['auth:tok'])
  })
  return app
}

async function userWithTokens(app: Application, count: number): Promise<{ user: User; tokens: Array<{ id: number; text: string }> }> {
  return runWithApp(app, async () => {
    await seed()
    const user = (await User.query().where('email', '=', 'test@example.com').first())!
    const tokens = []
    for (let i = 0; i < count; i++) {
      const { accessToken, plainTextToken } = await user.createToken(`t${i}`, ['orders:read'])
      tokens.push({ id: accessToken.id, text: plainTextToken })
    }
    return { user, tokens }
  })
}

/** GET path with the token on the app in this process, or on a server by URL. */
async function call(target: Application | string, token: string, path = '/user'): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }
  if (typeof target === 'string') return (await fetch(`${target}${path}`, { headers })).status
  return (await new TestClient(target).json('GET', path, undefined, headers)).status
}

async function can(target: Application | string, token: string, ability: string): Promise<boolean> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }
  const res =
    typeof target === 'string'
      ? await fetch(`${target}/can/${ability}`, { headers })
      : await new TestClient(target).json('GET', `/can/${ability}`, undefined, headers)
  return ((await res.json()) as { can: boolean }).can
}

/** Waits up to five seconds for a condition. */
async function until(condition: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 5000 && !condition(); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
  return condition()
}

/** Deletes a token row behind the models' back: only the cache can still accept it. */
async function deleteRow(app: Application, id: number): Promise<void> {
  await runWithApp(app, async () => {
    const db = await PersonalAccessToken.db()
    await db.deleteFrom('personal_access_tokens').where('id', '=', id).execute()
  })
}

test('off by default: a token deleted behind the models is refused on the next request', async (t) => {
  const app = await cachedApp(t, {}, {})
  await refreshDatabase(app)
  const { tokens } = await userWithTokens(app, 1)
  t.is(await call(app, tokens[0]!.text), 200)
  await deleteRow(app, tokens[0]!.id)
  t.is(await call(app, tokens[0]!.text), 401)
})

test('one process: a cached token is refused on the very next request after revoke, bulk delete, ability change, expiry or its user going', async (t) => {
  const app = await cachedApp(t, {}, { tok: { cache: { enabled: true, ttl: 60 } } })
  await refreshDatabase(app)
  const { user, tokens } = await userWithTokens(app, 6)
  const [raw, revoked, bulk, abilities, expiring, owner] = tokens as [
    (typeof tokens)[0],
    (typeof tokens)[0],
    (typeof tokens)[0],
    (typeof tokens)[0],
    (typeof tokens)[0],
    (typeof tokens)[0],
  ]
  for (const token of tokens) t.is(await call(app, token.text), 200)

  // The cache answers: a row deleted behind the models' back still passes until the TTL.
  await deleteRow(app, raw.id)
  t.is(await call(app, raw.text), 200)
  // A wrong secret for a cached id is not a hit.
  t.is(await call(app, `${revoked.id}|${raw.text.split('|')[1]}`), 401)

  await runWithApp(app, async () => (await PersonalAccessToken.find(revoked.id))!.delete())
  t.is(await call(app, revoked.text), 401)

  await runWithApp(app, () => user.tokens().where('id', '=', bulk.id).delete())
  t.is(await call(app, bulk.text), 401)

  t.true(await can(app, abilities.text, 'orders:read'))
  await runWithApp(app, async () => {
    const token = (await PersonalAccessToken.find(abilities.id))!
    token.abilities = ['orders:write']
    await token.save()
  })
  t.false(await can(app, abilities.text, 'orders:read'))
  t.true(await can(app, abilities.text, 'orders:write'))

  await runWithApp(app, async () => {
    const token = (await PersonalAccessToken.find(expiring.id))!
    token.expires_at = new Date(Date.now() - 1000)
    await token.save()
  })
  t.is(await call(app, expiring.text), 401)

  t.is(await call(app, owner.text), 200)
  await runWithApp(app, async () => (await User.find(user.id))!.delete())
  t.is(await call(app, owner.text), 401)
})

test('one process: an entry never outlives its token, and the last-used bookkeeping does not empty the cache', async (t) => {
  const app = await cachedApp(t, {}, { tok: { cache: { enabled: true, ttl: 60 } } })
  await refreshDatabase(app)
  const { user } = await userWithTokens(app, 0)
  const expiresAt = new Date(Date.now() + 4000)
  const { accessToken, plainTextToken } = await runWithApp(app, () => user.createToken('short', ['*'], { expiresAt }))
  t.is(await call(app, plainTextToken), 200)
  // last_used_at is written shortly after a use; a write of it alone is bookkeeping, not a change.
  let stored: PersonalAccessToken | undefined
  for (let waited = 0; waited < 3000 && !stored?.last_used_at; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    stored = await runWithApp(app, () => PersonalAccessToken.find(accessToken.id))
  }
  t.truthy(stored?.last_used_at)
  await deleteRow(app, accessToken.id)
  t.is(await call(app, plainTextToken), 200, 'still cached after last_used_at was written')
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now() + 50)))
  t.is(await call(app, plainTextToken), 401, 'the entry ended with the token')
})

test('two processes over Redis: a token revoked in one is refused by the other on the very next request', async (t) => {
  const { schema } = await pgSchema(t)
  // Its own app name, so its invalidation channel is its own among parallel tests.
  const env = { DB_CONNECTION: 'pgsql', APP_NAME: `Cache ${schema}` }
  const config = { database: { connections: { pgsql: { url: DATABASE_URL, schema } } }, tok: { cache: { enabled: true, ttl: 60, redis: REDIS_URL } } }
  const app = await cachedApp(t, env, config)
  await new Migrator(app).fresh()
  const { user, tokens } = await userWithTokens(app, 4)
  const [raw, revoked, bulk, abilities] = tokens as [(typeof tokens)[0], (typeof tokens)[0], (typeof tokens)[0], (typeof tokens)[0]]

  const child = fork(childScript, [], {
    execArgv: ['--conditions=kiln-source', '--import=tsx'],
    env: { ...process.env, TOKEN_CACHE_APP: JSON.stringify({ env, config }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  t.teardown(() => void child.kill('SIGKILL'))
  const other = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the other process exited with ${code}`)))
    child.once('message', (message: { url: string }) => resolve(message.url))
  })

  const first = await fetch(`${other}/user`, { headers: { authorization: `Bearer ${raw.text}`, accept: 'application/json' } })
  t.is(first.status, 200, await first.text())
  for (const token of tokens) t.is(await call(other, token.text), 200)
  t.true(await can(other, abilities.text, 'orders:read'))
  // The other process answers from its cache: a row deleted behind the models' back still passes there.
  await deleteRow(app, raw.id)
  t.is(await call(other, raw.text), 200)

  await runWithApp(app, async () => (await PersonalAccessToken.find(revoked.id))!.delete())
  t.is(await call(other, revoked.text), 401)

  await runWithApp(app, () => user.tokens().where('id', '=', bulk.id).delete())
  t.is(await call(other, bulk.text), 401)

  await runWithApp(app, async () => {
    const token = (await PersonalAccessToken.find(abilities.id))!
    token.abilities = ['orders:write']
    await token.save()
  })
  t.false(await can(other, abilities.text, 'orders:read'))
})

test('while Redis is down the cache is bypassed, so no invalidation can be missed; tokens keep working, and the cache returns with Redis', async (t) => {
  const port = await freePort()
  const redis = await redisServer(t, port)
  const logs: string[] = []
  const app = await cachedApp(t, {}, { tok: { cache: { enabled: true, ttl: 60, redis: `redis://127.0.0.1:${port}`, redis_timeout_ms: 300 } } })
  app.logger.warn = ((_context: unknown, message: string) => void logs.push(message)) as typeof app.logger.warn
  await refreshDatabase(app)
  const { tokens } = await userWithTokens(app, 2)
  const [first, second] = tokens as [(typeof tokens)[0], (typeof tokens)[0]]
  const cache = tokenCache(app)!
  t.true(await until(() => cache.usable), 'the cache listens on Redis')

  t.is(await call(app, first.text), 200)
  await deleteRow(app, first.id)
  t.is(await call(app, first.text), 200, 'answered from the cache')

  await redis.stop()
  t.true(await until(() => !cache.usable), 'the cache stops counting when its subscription drops')
  // Another process may have revoked it meanwhile, unheard: the database decides.
  t.is(await call(app, first.text), 401)
  t.is(await call(app, second.text), 200)
  await deleteRow(app, second.id)
  t.is(await call(app, second.text), 401, 'nothing was cached while Redis was down')
  t.true(logs.some((message) => message.includes('Redis is unreachable')))

  await redis.start()
  t.true(await until(() => cache.usable), 'the cache counts again once Redis is back')
  t.is(cache.size, 0, 'it starts empty: invalidations sent during the outage were lost')
})

test('one process: a hit gives the route its own models; what the route changes in them, saved or not, never reaches the cache', async (t) => {
  const app = await cachedApp(t, {}, { tok: { cache: { enabled: true, ttl: 60 } } })
  app.router.group({ middleware: ['api'] }, () => {
    app.router
      .get('/meddle', ({ request }) => {
        const user = request.user<User>()!
        const seen = {
          name: user.name,
          created: (user.getAttribute('created_at') as Date).getTime(),
          abilities: [...(user.currentAccessToken() as PersonalAccessToken).abilities],
        }
        user.name = 'Changed in a route'
        ;(user.getAttribute('created_at') as Date).setTime(0)
        ;(user.currentAccessToken() as PersonalAccessToken).abilities.push('everything')
        return seen
      })
      .middleware(['auth:tok'])
  })
  await refreshDatabase(app)
  const { user, tokens } = await userWithTokens(app, 1)
  const headers = { authorization: `Bearer ${tokens[0].text}`, accept: 'application/json' }
  const client = new TestClient(app)
  const first = await (await client.json('GET', '/meddle', undefined, headers)).json()
  t.is(tokenCache(app)!.size, 1)
  for (let i = 0; i < 2; i++) t.deepEqual(await (await client.json('GET', '/meddle', undefined, headers)).json(), first)
  t.deepEqual(first, { name: user.name, created: (user.getAttribute('created_at') as Date).getTime(), abilities: ['orders:read'] })
  t.false(await can(app, tokens[0].text, 'everything'))
})

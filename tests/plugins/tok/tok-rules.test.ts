import { fileURLToPath } from 'node:url'
import test from 'ava'
import { createTestApp, refreshDatabase, TestClient } from '../../../core/testing/index.ts'
import { runWithApp } from '../../../core/index.ts'
import { PersonalAccessToken } from '../../../plugins/tok/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { User } from '../../../app-template/app/models/user.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

async function seeded(t: { teardown(fn: () => unknown): void }, config: Record<string, unknown> = {}) {
  const app = await createTestApp({ root, config })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const user = await runWithApp(app, async () => {
    await seed()
    return (await User.query().where('email', '=', 'test@example.com').first())!
  })
  return { app, user }
}

for (const alias of ['abilities', 'ability']) {
  test(`${alias} with no abilities is a configuration error at boot that names the route, not an open door`, async (t) => {
    const error = await t.throwsAsync(() =>
      createTestApp({
        root: tempApp({
          'config/app.ts':
            "import { defineConfig } from 'kiln-framework'\nimport { tok } from 'kiln-framework/tok'\nexport default defineConfig({ plugins: [tok()] })\n",
          'routes/api.ts': `import { defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/orders', () => []).middleware(['auth:tok', '${alias}']) })\n`,
        }),
      }),
    )
    t.regex(error!.message, new RegExp(`Route GET /orders: Middleware "${alias}": list at least one ability`))
  })
}

test('tokens issued under an earlier TOK_TOKEN_PREFIX keep working after it changes', async (t) => {
  const { app, user } = await seeded(t, { tok: { token_prefix: 'old_' } })
  const { plainTextToken } = await runWithApp(app, () => user.createToken('cli'))
  t.regex(plainTextToken, /^\d+\|old_/)
  app.config.set('tok.token_prefix', 'new_')
  const fresh = await runWithApp(app, () => user.createToken('cli2'))
  t.regex(fresh.plainTextToken, /^\d+\|new_/)
  const client = new TestClient(app)
  for (const token of [plainTextToken, fresh.plainTextToken])
    t.is((await client.json('GET', '/user', undefined, { authorization: `Bearer ${token}` })).status, 200, token)
  // The prefix is a hint, the secret is what counts: a wrong secret under any prefix is still refused.
  const forged = plainTextToken.replace('|old_', '|new_')
  t.is((await client.json('GET', '/user', undefined, { authorization: `Bearer ${forged}` })).status, 401)
})

test('expires_at stores the real expiry: the earlier of the own expiresAt and tok.expiration', async (t) => {
  const { app, user } = await seeded(t, { tok: { expiration: 60 } })
  const inAYear = new Date(Date.now() + 365 * 24 * 3600_000)
  const inTenMinutes = new Date(Date.now() + 10 * 60_000)
  const capped = await runWithApp(app, () => user.createToken('long', ['*'], { expiresAt: inAYear }))
  const own = await runWithApp(app, () => user.createToken('short', ['*'], { expiresAt: inTenMinutes }))
  const never = await runWithApp(app, () => user.createToken('never', ['*'], { expiresAt: null }))
  const stored = async (id: number) => new Date((await runWithApp(app, () => PersonalAccessToken.find(id)))!.expires_at!).getTime()
  const hour = Date.now() + 60 * 60_000
  t.true(Math.abs((await stored(capped.accessToken.id)) - hour) < 5000, 'capped at tok.expiration, and the column says so')
  t.is(await stored(own.accessToken.id), inTenMinutes.getTime())
  t.true(Math.abs((await stored(never.accessToken.id)) - hour) < 5000, 'no expiresAt still expires with tok.expiration')
})

test('token_prefix: up to 64 characters works end to end; a longer one, which no token could pass, stops boot with a clear error', async (t) => {
  const longest = 'p'.repeat(63) + '_'
  const { app, user } = await seeded(t, { tok: { token_prefix: longest } })
  const { plainTextToken } = await runWithApp(app, () => user.createToken('cli'))
  t.is((await new TestClient(app).json('GET', '/user', undefined, { authorization: `Bearer ${plainTextToken}` })).status, 200)
  const error = await t.throwsAsync(() => createTestApp({ root, config: { tok: { token_prefix: `${longest}x` } } }))
  t.regex(error!.message, /config\/tok\.ts.*token_prefix/s)
})

import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { Event, Migrator, ModelUserProvider, runWithApp, type Application } from '../../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../../core/testing/index.ts'
import { PersonalAccessToken, TokenAuthenticated } from '../../../plugins/tok/index.ts'
import seed from '../../../app-template/database/seeders/index.ts'
import { User } from '../../../app-template/app/models/user.ts'
import { DATABASE_URL, pgSchema } from '../../fixtures/pg-schema.ts'

const root = fileURLToPath(new URL('../../../app-template/', import.meta.url))

async function setup(t: ExecutionContext, config: Record<string, unknown> = {}): Promise<{ app: Application; users: User[] }> {
  const app = await createTestApp({ root, config })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const users = await runWithApp(app, async () => {
    await seed()
    return User.query().orderBy('id').get()
  })
  return { app, users }
}

const status = async (app: Application, token: string) =>
  (await new TestClient(app).json('GET', '/user', undefined, { authorization: `Bearer ${token}` })).status

test('a provider with its own retrieveById is asked for the user: the token and its user are not joined past it', async (t) => {
  const { app, users } = await setup(t, { auth: { providers: { users: { driver: 'picky' } } } })
  const [allowed, refused] = users as [User, User]
  // Registered before the first guard resolves its provider.
  app.service('auth').providers.extend('picky', () => {
    class Picky extends ModelUserProvider {
      override async retrieveById(id: unknown) {
        return Number(id) === refused.id ? undefined : super.retrieveById(id)
      }
    }
    return new Picky(() => User)
  })
  const good = await runWithApp(app, () => allowed.createToken('a'))
  const bad = await runWithApp(app, () => refused.createToken('b'))
  t.is(await status(app, good.plainTextToken), 200)
  t.is(await status(app, bad.plainTextToken), 401)
})

test('a token of another model type, or of a user who is gone, is 401', async (t) => {
  const { app, users } = await setup(t)
  const user = users[0]!
  const { accessToken, plainTextToken } = await runWithApp(app, () => user.createToken('a'))
  t.is(await status(app, plainTextToken), 200)
  await runWithApp(app, () => PersonalAccessToken.query().where('id', '=', accessToken.id).update({ tokenable_type: 'Team' }))
  t.is(await status(app, plainTextToken), 401)
  await runWithApp(app, () => PersonalAccessToken.query().where('id', '=', accessToken.id).update({ tokenable_type: 'User' }))
  t.is(await status(app, plainTextToken), 200)
  await runWithApp(app, async () => (await User.find(user.id))!.delete())
  t.is(await status(app, plainTextToken), 401)
})

test('TokenAuthenticated reaches "*" listeners and fakes; unobserved, the request still passes', async (t) => {
  const { app, users } = await setup(t)
  const { accessToken, plainTextToken } = await runWithApp(app, () => users[0]!.createToken('a'))
  t.false(runWithApp(app, () => TokenAuthenticated.isObserved()))
  t.is(await status(app, plainTextToken), 200)
  const seen: string[] = []
  runWithApp(app, () => Event.listen('*', (event: Event) => void seen.push(event.constructor.name)))
  t.true(runWithApp(app, () => TokenAuthenticated.isObserved()))
  t.is(await status(app, plainTextToken), 200)
  t.true(seen.includes('TokenAuthenticated'))
  const fake = runWithApp(app, () => Event.fake())
  t.is(await status(app, plainTextToken), 200)
  fake.assertDispatched(TokenAuthenticated, (event: TokenAuthenticated) => event.token.id === accessToken.id)
})

test('PostgreSQL: concurrent requests share token reads, and each gets its own user or a 401', async (t) => {
  const { schema } = await pgSchema(t)
  const app = await createTestApp({ root, env: { DB_CONNECTION: 'pgsql' }, config: { database: { connections: { pgsql: { url: DATABASE_URL, schema } } } } })
  t.teardown(() => app.close())
  await new Migrator(app).fresh()
  const users = await runWithApp(app, async () => {
    await seed()
    return User.query().orderBy('id').get()
  })
  const tokens = await runWithApp(app, async () => {
    const made: Array<{ text: string; email: string | undefined }> = []
    for (const user of users) for (let i = 0; i < 3; i++) made.push({ text: (await user.createToken(`t${i}`)).plainTextToken, email: user.email as string })
    return made
  })
  // A deleted user's token, a revoked token and wrong secrets for real ids share batches with good tokens.
  const gone = users[2]!
  await runWithApp(app, async () => (await User.find(gone.id))!.delete())
  for (const token of tokens) if (token.email === gone.email) token.email = undefined
  const revoked = tokens[1]!
  await runWithApp(app, () =>
    PersonalAccessToken.query()
      .where('id', '=', Number(revoked.text.split('|')[0]))
      .delete(),
  )
  revoked.email = undefined
  const wrong = tokens.slice(0, 4).map((token) => ({ text: `${token.text.slice(0, -12)}${'A'.repeat(12)}`, email: undefined }))
  const unknown = { text: `99999|${tokens[0]!.text.split('|')[1]}`, email: undefined }
  const cases = [...tokens, ...wrong, unknown]

  const server = await app.listen({ port: 0 })
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(
      [...cases, ...cases].map(async ({ text, email }) => {
        const response = await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${text}`, accept: 'application/json' } })
        const body = (await response.json()) as { email?: string; message?: string }
        return { expected: email ?? 401, got: response.status === 200 ? body.email : response.status }
      }),
    )
    for (const { expected, got } of answers) t.is(got, expected)
  }
})

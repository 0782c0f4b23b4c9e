import test from 'ava'
import { Authenticatable, HttpException, Limit, Model, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { databaseApp } from '../../fixtures/database.ts'

class Member extends Authenticatable(Model) {
  static table = 'members'
  static fillable = ['email']
  declare id: number
  declare email: string
  declare password: string
}

const migration = `
import { increments } from 'kiln-framework'
export async function up(db) {
  await db.schema.createTable('members').addColumn('id', ...increments(db))
    .addColumn('email', 'varchar(255)').addColumn('password', 'varchar(255)')
    .addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute()
}
export async function down() {}
`

/** An app with two members and the routes a password page would have; `limiter` becomes `auth.password_limiter`. */
async function passwordApp(t: Parameters<typeof databaseApp>[0], limiter?: { name: string; max: number }) {
  const app = await databaseApp(t, 'sqlite', { 'database/migrations/0002_members.ts': migration })
  app.config.set('auth.providers.members', { driver: 'model', model: () => Member })
  app.config.set('auth.guards.web', { driver: 'session', provider: 'members' })
  if (limiter) {
    app.config.set('auth.password_limiter', limiter.name)
    // Keyed by the address: the checks count per user whatever the limiter keys by.
    app.service('limiters').for(limiter.name, ({ request }) => Limit.perMinute(limiter.max).by(request.ip() ?? 'here'))
  }
  await runWithApp(app, async () => {
    for (const email of ['ada@example.com', 'bob@example.com']) {
      const member = new Member({ email })
      await member.setPassword('secret-one')
      await member.save()
    }
  })
  app.router.group({ middleware: ['web'] }, () => {
    app.router.post('/login', async ({ auth, request }) => ({
      ok: Boolean(await auth.attempt({ email: request.input('email'), password: request.input('password') })),
    }))
    app.router.get('/me', ({ request }) => ({ email: request.user<Member>()!.email })).middleware(['auth'])
    app.router.post('/touch', () => ({ ok: true })).middleware(['auth'])
    app.router
      .post('/password', async ({ auth, request }) => {
        const user = request.user<Member>()!
        await user.setPassword(String(request.input('password')))
        await user.save()
        await auth.passwordChanged(user)
        return { ok: true }
      })
      .middleware(['auth'])
    // Each password of the body checked in turn, in this one request.
    app.router
      .post('/check', async ({ auth, request }) => {
        const answers: unknown[] = []
        for (const password of request.input('passwords') as string[]) {
          try {
            answers.push(await auth.checkPassword(password))
          } catch (error) {
            if (!(error instanceof HttpException)) throw error
            answers.push({ status: error.status, message: error.message, retryAfter: error.options.headers?.['retry-after'] })
          }
        }
        return { answers }
      })
      .middleware(['auth'])
    app.router
      .post('/logout-others', async ({ auth, request }) => ({ ok: await auth.logoutOtherDevices(String(request.input('password'))) }))
      .middleware(['auth'])
  })
  return app
}

async function loggedIn(app: Application, email = 'ada@example.com', password = 'secret-one'): Promise<TestClient> {
  const client = new TestClient(app)
  await client.get('/me')
  const res = await client.json('POST', '/login', { email, password })
  if (res.status !== 200 || !(await res.json()).ok) throw new Error(`login answered ${res.status}`)
  return client
}

const me = async (client: TestClient) => (await client.json('GET', '/me')).status

test('a password changed anywhere ends every session logged in with the old one, on its next request; passwordChanged keeps this one, under a new id', async (t) => {
  const app = await passwordApp(t)
  const [first, second, third] = [await loggedIn(app), await loggedIn(app), await loggedIn(app)]
  const bob = await loggedIn(app, 'bob@example.com')
  for (const client of [first, second, third, bob]) t.is(await me(client), 200)

  // Changed outside any request (a console command, another machine): the sessions find out by themselves.
  await runWithApp(app, async () => {
    const ada = (await Member.query().where('email', '=', 'ada@example.com').first())!
    await ada.setPassword('secret-two')
    await ada.save()
  })
  const before = first.cookie('kiln_session')
  t.is(await me(first), 401)
  t.not(first.cookie('kiln_session'), before, 'the ended session is replaced by an empty one')
  t.is(await me(first), 401, 'and stays ended')
  t.is(await me(bob), 200, "another user's session is untouched")

  // Through passwordChanged: the session that changed it stays, with a new id; the others end.
  const [here, elsewhere] = [await loggedIn(app, 'ada@example.com', 'secret-two'), await loggedIn(app, 'ada@example.com', 'secret-two')]
  const id = here.cookie('kiln_session')
  t.is((await here.json('POST', '/password', { password: 'secret-three' })).status, 200)
  t.not(here.cookie('kiln_session'), id, 'a new session id')
  t.is(await me(here), 200)
  t.is((await here.json('POST', '/touch', {})).status, 200, 'its CSRF token still works')
  t.is(await me(elsewhere), 401)
  t.is(await me(second), 401)
  t.is(await me(bob), 200)
})

test('checkPassword: one check per request (a second one is refused with 429 before hashing), and without a limiter no limit across requests', async (t) => {
  const app = await passwordApp(t)
  const client = await loggedIn(app)
  const res = await client.json('POST', '/check', { passwords: ['wrong', 'secret-one', 'secret-one'] })
  t.is(res.status, 200)
  const { answers } = (await res.json()) as { answers: unknown[] }
  t.is(answers[0], false)
  for (const refused of answers.slice(1)) {
    t.like(refused, { status: 429, retryAfter: '1' })
    t.regex((refused as { message: string }).message, /Too many password attempts\. A request may check a password only once/)
  }
  for (let i = 0; i < 7; i++) t.deepEqual((await (await client.json('POST', '/check', { passwords: ['wrong'] })).json()).answers, [false])
  t.deepEqual((await (await client.json('POST', '/check', { passwords: ['secret-one'] })).json()).answers, [true])
})

test('checkPassword counts wrong guesses against auth.password_limiter per user: past the limit even the right password is refused (429, Retry-After); another user still checks', async (t) => {
  const app = await passwordApp(t, { name: 'passwords', max: 3 })
  const ada = await loggedIn(app)
  const check = async (client: TestClient, password: string) =>
    ((await (await client.json('POST', '/check', { passwords: [password] })).json()) as { answers: unknown[] }).answers[0]
  // A right password starts the count over: the limit is on wrong guesses in a row.
  for (const password of ['wrong', 'wrong', 'secret-one', 'wrong', 'wrong', 'wrong']) t.is(await check(ada, password), password === 'secret-one')
  const refused = await check(ada, 'secret-one')
  t.like(refused, { status: 429 })
  t.regex((refused as { message: string }).message, /^Too many password attempts\. Try again in \d+ seconds\.$/)
  t.true(Number((refused as { retryAfter: string }).retryAfter) >= 1)
  // The limiter keys by the address, the same for both: the count is per user all the same.
  const bob = await loggedIn(app, 'bob@example.com')
  t.is(await check(bob, 'secret-one'), true)
})

test('logoutOtherDevices: a wrong password ends nothing and answers false; the right one ends every other session, keeps this one, and the password still works', async (t) => {
  const app = await passwordApp(t)
  const [here, other] = [await loggedIn(app), await loggedIn(app)]
  const hashOf = () => runWithApp(app, async () => (await Member.query().where('email', '=', 'ada@example.com').first())!.password)
  const hash = await hashOf()
  t.deepEqual(await (await here.json('POST', '/logout-others', { password: 'wrong' })).json(), { ok: false })
  t.is(await me(other), 200, 'nothing ended')
  t.is(await hashOf(), hash)
  t.deepEqual(await (await here.json('POST', '/logout-others', { password: 'secret-one' })).json(), { ok: true })
  t.not(await hashOf(), hash, 'the same password, hashed again with a new salt')
  t.is(await me(here), 200)
  t.is(await me(other), 401)
  t.is(await me(await loggedIn(app)), 200, 'the password is unchanged')
})

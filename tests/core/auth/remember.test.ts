import test from 'ava'
import { Authenticatable, Model, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { databaseApp } from '../database/database-suite.ts'

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
  await db.schema.createTable('remember_tokens').addColumn('id', ...increments(db))
    .addColumn('selector', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('password_fingerprint', 'varchar(64)')
    .addColumn('expires_at', 'bigint', (c) => c.notNull()).execute()
}
export async function down() {}
`

async function rememberApp(t: Parameters<typeof databaseApp>[0], dialect: 'sqlite' | 'pgsql', remember = true) {
  const app = await databaseApp(t, dialect, { 'database/migrations/0002_members.ts': migration })
  app.config.set('auth.providers.members', { driver: 'model', model: () => Member })
  app.config.set('auth.guards.web', { driver: 'session', provider: 'members', ...(remember ? { remember: { table: 'remember_tokens' } } : {}) })
  const member = await runWithApp(app, async () => {
    const m = new Member({ email: 'ada@example.com' })
    await m.setPassword('secret-one')
    await m.save()
    return m
  })
  app.router.group({ middleware: ['web'] }, () => {
    app.router.post('/login', async ({ auth, request }) => ({
      ok: Boolean(await auth.attempt({ email: request.input('email'), password: request.input('password') }, { remember: request.input('remember') === true })),
    }))
    app.router.get('/me', ({ request }) => ({ email: request.user<Member>()!.email })).middleware(['auth'])
    app.router.post('/logout', async ({ auth }) => (await auth.logout(), { ok: true }))
    app.router
      .post('/password', async ({ auth, request }) => {
        const user = request.user<Member>()!
        await user.setPassword(String(request.input('password')))
        await user.save()
        if (request.input('forget') === true) await auth.forgetRememberedDevices(user)
        return { ok: true }
      })
      .middleware(['auth'])
  })
  return { app, member }
}

const rows = async (app: Application) => (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute()

async function loggedIn(app: Application, remember = true, password = 'secret-one') {
  const client = new TestClient(app)
  await client.get('/me')
  const res = await client.json('POST', '/login', { email: 'ada@example.com', password, remember })
  if (res.status !== 200 || !(await res.json()).ok) throw new Error(`login answered ${res.status}`)
  return client
}

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: a remembered login survives the loss of its session; the token is stored hashed, rotated on use, and a replayed old one ends every device`, async (t) => {
    const { app } = await rememberApp(t, dialect)
    const client = await loggedIn(app)
    const first = client.cookies.get('remember_web')!.value
    const [row] = await rows(app)
    t.truthy(row)
    t.false(first.includes(String(row.token_hash)), 'the cookie is sealed and the table keeps only a hash')
    t.regex(String(row.token_hash), /^[0-9a-f]{64}$/)

    // The session is gone (expired, store flushed): the remember cookie logs the user back in.
    client.cookies.delete('kiln_session')
    const again = await client.json('GET', '/me')
    t.is(again.status, 200)
    t.deepEqual(await again.json(), { email: 'ada@example.com' })
    const second = client.cookies.get('remember_web')!.value
    t.not(second, first, 'rotated on use')
    const after = await rows(app)
    t.is(after.length, 1)
    t.not(after[0]!.selector, row.selector)

    // Within the new session no remember lookup happens; the old cookie's row is gone.
    t.is((await client.json('GET', '/me')).status, 200)

    // The first cookie, replayed after its rotation, names no row any more: refused, nothing else changes.
    const replay = new TestClient(app)
    replay.cookies.set('remember_web', { value: first, path: '/' })
    t.is((await replay.json('GET', '/me')).status, 401)
    t.is((await rows(app)).length, 1)

    // A live selector with the wrong secret is a stolen, already rotated cookie: every token of the user ends.
    const forged = new TestClient(app)
    const sealed = app.service('encrypter').encrypt(`${String(after[0]!.selector)}:${'x'.repeat(43)}`, 'cookie:remember_web')
    forged.cookies.set('remember_web', { value: sealed, path: '/' })
    t.is((await forged.json('GET', '/me')).status, 401)
    t.is((await rows(app)).length, 0)
    client.cookies.delete('kiln_session')
    t.is((await client.json('GET', '/me')).status, 401, 'the real owner must log in again')
  })
}

test('logout forgets the token and deletes the cookie; a login without remember sets none', async (t) => {
  const { app } = await rememberApp(t, 'sqlite')
  const plain = await loggedIn(app, false)
  t.false(plain.cookies.has('remember_web'))
  t.is((await rows(app)).length, 0)

  const client = await loggedIn(app)
  const cookie = client.cookies.get('remember_web')!.value
  t.is((await client.json('POST', '/logout')).status, 200)
  t.false(client.cookies.has('remember_web'))
  t.is((await rows(app)).length, 0)
  // The old cookie, kept by someone, no longer logs in.
  const copy = new TestClient(app)
  copy.cookies.set('remember_web', { value: cookie, path: '/' })
  t.is((await copy.json('GET', '/me')).status, 401)
})

test('a password change ends remembered devices: by the fingerprint even when nothing deletes the rows, and at once with forgetRememberedDevices', async (t) => {
  const { app } = await rememberApp(t, 'sqlite')
  let laptop = await loggedIn(app)
  const phone = await loggedIn(app)
  t.is((await rows(app)).length, 2)
  // Changed without telling auth (as a password reset written elsewhere would): the phone's token no longer matches.
  t.is((await laptop.json('POST', '/password', { password: 'secret-two' })).status, 200)
  phone.cookies.delete('kiln_session')
  t.is((await phone.json('GET', '/me')).status, 401)
  t.false(phone.cookies.has('remember_web'), 'the refused cookie is deleted')
  // Nor did it tell auth (auth.passwordChanged) for the laptop: its own session ended too, and it logs in again.
  laptop = await loggedIn(app, true, 'secret-two')

  // With forgetRememberedDevices: every row of the user goes, and this browser gets a new token.
  const tablet = await loggedIn(app, true, 'secret-two')
  const before = laptop.cookies.get('remember_web')!.value
  t.is((await laptop.json('POST', '/password', { password: 'secret-three', forget: true })).status, 200)
  const left = await rows(app)
  t.is(left.length, 1, 'only the new token of the browser that changed it')
  t.not(laptop.cookies.get('remember_web')!.value, before)
  laptop.cookies.delete('kiln_session')
  t.is((await laptop.json('GET', '/me')).status, 200)
  tablet.cookies.delete('kiln_session')
  t.is((await tablet.json('GET', '/me')).status, 401)
})

test('forged or malformed remember cookies are ignored without a database error; remember on a guard without it configured is a clear error', async (t) => {
  const { app } = await rememberApp(t, 'sqlite')
  for (const value of ['x', 'a:b', `${'a'.repeat(16)}:${'b'.repeat(43)}`, "' OR 1=1 --:zzz", '__proto__:constructor']) {
    const client = new TestClient(app)
    client.cookies.set('remember_web', { value, path: '/' })
    t.is((await client.json('GET', '/me')).status, 401, value)
  }
  const bare = await rememberApp(t, 'sqlite', false)
  const client = new TestClient(bare.app)
  await client.get('/me')
  const codes: string[] = []
  bare.app.router.group({ middleware: ['web'] }, () =>
    bare.app.router.post('/login-remembered', async ({ auth }) => {
      await auth.login(bare.member, { remember: true }).catch((error: { code?: string }) => codes.push(String(error.code ?? error)))
      return { ok: true }
    }),
  )
  t.is((await client.json('POST', '/login-remembered')).status, 200)
  t.deepEqual(codes, ['E_REMEMBER_NOT_CONFIGURED'])
})

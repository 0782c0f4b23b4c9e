import test from 'ava'
import { Authenticatable, Model, runWithApp, type Application } from '../../../core/index.ts'
import { TestClient } from '../../../core/testing/index.ts'
import { databaseApp } from '../../fixtures/database.ts'

class Member extends Authenticatable(Model) {
  static table = 'members'
  static fillable = ['email']
  declare id: number
  declare email: string
  declare password: string
}

/** The members table and a remember_tokens table; without `rotation`, as the starter made it before tokens rotated within a series. */
const migration = (rotation = true) => `
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
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    ${rotation ? ".addColumn('previous_token_hash', 'varchar(64)').addColumn('rotated_at', 'bigint')" : ''}.execute()
}
export async function down() {}
`

async function rememberApp(t: Parameters<typeof databaseApp>[0], dialect: 'sqlite' | 'pgsql', remember = true, rotation = true) {
  const app = await databaseApp(t, dialect, { 'database/migrations/0002_members.ts': migration(rotation) })
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
        if (request.input('forget') === true) {
          // This session stays (new id, new fingerprint); every remembered device is forgotten, this one re-issued.
          await auth.passwordChanged(user)
          if (request.input('keep') === false) await auth.forgetRememberedDevices(user, { keepThisDevice: false })
        }
        return { ok: true }
      })
      .middleware(['auth'])
  })
  return { app, member }
}

const rows = async (app: Application) => (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute()

/** Moves every rotation an hour into the past, beyond the grace in which the replaced token still logs in. */
const pastTheGrace = async (app: Application) =>
  (await app.service('db').kysely())
    .updateTable('remember_tokens')
    .set({ rotated_at: Math.floor(Date.now() / 1000) - 3600 })
    .where('rotated_at', 'is not', null)
    .execute()

/** A browser without the session (expired, flushed) holding a copy of a remember cookie. */
function holding(app: Application, cookie: string) {
  const client = new TestClient(app)
  client.cookies.set('remember_web', { value: cookie, path: '/' })
  return client
}

async function loggedIn(app: Application, remember = true, password = 'secret-one') {
  const client = new TestClient(app)
  await client.get('/me')
  const res = await client.json('POST', '/login', { email: 'ada@example.com', password, remember })
  if (res.status !== 200 || !(await res.json()).ok) throw new Error(`login answered ${res.status}`)
  return client
}

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: a remembered login survives the loss of its session; the token is stored hashed and rotated on use within its series`, async (t) => {
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
    t.is(after[0]!.selector, row.selector, 'the series keeps its selector')
    t.not(after[0]!.token_hash, row.token_hash)
    t.is(after[0]!.previous_token_hash, row.token_hash)

    // Within the new session no remember lookup happens.
    t.is((await client.json('GET', '/me')).status, 200)

    // A live selector with a secret that is neither its token nor the one it just replaced: a stolen cookie, every token of the user ends.
    const forged = new TestClient(app)
    const sealed = app.service('encrypter').encrypt(`${String(after[0]!.selector)}:${'x'.repeat(43)}`, 'cookie:remember_web')
    forged.cookies.set('remember_web', { value: sealed, path: '/' })
    t.is((await forged.json('GET', '/me')).status, 401)
    t.is((await rows(app)).length, 0)
    t.is((await client.json('GET', '/me')).status, 401, 'the session that came from the series ends too')
    client.cookies.delete('kiln_session')
    t.is((await client.json('GET', '/me')).status, 401, 'the real owner must log in again')
  })

  test(`${dialect}: a thief uses a copied cookie first; the owner's browser replays the old token after the grace: theft, every remembered login ends`, async (t) => {
    const { app } = await rememberApp(t, dialect)
    const owner = await loggedIn(app)
    const phone = await loggedIn(app)
    const plain = await loggedIn(app, false)
    const stolen = owner.cookies.get('remember_web')!.value

    const thief = holding(app, stolen)
    t.is((await thief.json('GET', '/me')).status, 200, 'the copy works once: nothing tells it from the owner yet')
    t.not(thief.cookies.get('remember_web')!.value, stolen)
    t.is((await thief.json('GET', '/me')).status, 200)

    await pastTheGrace(app)
    const warnings: unknown[][] = []
    const warn = app.logger.warn.bind(app.logger)
    app.logger.warn = ((...args: unknown[]) => (warnings.push(args), warn(...(args as [string])))) as typeof app.logger.warn
    owner.cookies.delete('kiln_session')
    t.is((await owner.json('GET', '/me')).status, 401, 'the old token, replayed after the grace, is refused')
    t.false(owner.cookies.has('remember_web'))
    t.is(warnings.length, 1, 'the theft is logged once')
    t.regex(String(warnings[0]![1]), /remember-me cookie was replayed/)
    t.false(JSON.stringify(warnings).includes(stolen), 'never the cookie')
    t.is((await rows(app)).length, 0, 'every remembered login of the user is forgotten')
    t.is((await thief.json('GET', '/me')).status, 401, "the thief's session, made from the series, ends on its next request")
    thief.cookies.delete('kiln_session')
    t.is((await thief.json('GET', '/me')).status, 401)
    t.is((await phone.json('GET', '/me')).status, 401, 'a session that created a remembered login ends with it')
    t.is((await plain.json('GET', '/me')).status, 200, 'a session logged in with the password alone is not a remembered login')
  })

  test(`${dialect}: the owner uses the cookie first; a thief replays the old token after the grace: theft, the owner's remembered session ends too`, async (t) => {
    const { app } = await rememberApp(t, dialect)
    const owner = await loggedIn(app)
    const stolen = owner.cookies.get('remember_web')!.value
    owner.cookies.delete('kiln_session')
    t.is((await owner.json('GET', '/me')).status, 200)
    t.not(owner.cookies.get('remember_web')!.value, stolen)

    await pastTheGrace(app)
    const thief = holding(app, stolen)
    t.is((await thief.json('GET', '/me')).status, 401)
    t.is((await rows(app)).length, 0)
    t.is((await owner.json('GET', '/me')).status, 401, "the owner's session from the series ends: they log in again, the thief has nothing")
    owner.cookies.delete('kiln_session')
    t.is((await owner.json('GET', '/me')).status, 401)
  })

  test(`${dialect}: parallel requests with the same cookie (a browser restoring its tabs) all log in; one rotates, no theft, the series goes on`, async (t) => {
    const { app } = await rememberApp(t, dialect)
    const browser = await loggedIn(app)
    const first = browser.cookies.get('remember_web')!.value
    browser.cookies.delete('kiln_session')
    const tabs = await Promise.all(Array.from({ length: 5 }, () => browser.json('GET', '/me')))
    t.deepEqual(
      tabs.map((r) => r.status),
      [200, 200, 200, 200, 200],
    )
    t.is(tabs.filter((r) => r.cookies.has('remember_web')).length, 1, 'only the request that rotated the token sets a new cookie')
    const second = browser.cookies.get('remember_web')!.value
    t.not(second, first)
    t.is((await rows(app)).length, 1, 'no theft: the series is kept')
    t.is((await browser.json('GET', '/me')).status, 200)

    // The same old token a little later, within the grace: still logged in, not rotated again.
    const late = holding(app, first)
    const res = await late.json('GET', '/me')
    t.is(res.status, 200)
    t.false(res.cookies.has('remember_web'))

    // The series goes on with the new token.
    browser.cookies.delete('kiln_session')
    t.is((await browser.json('GET', '/me')).status, 200)
    t.not(browser.cookies.get('remember_web')!.value, second)
    t.is((await rows(app)).length, 1)
  })
}

test("a table made before rotation (no previous_token_hash, rotated_at) is a clear error naming the migration, not the driver's SQL message", async (t) => {
  const { app, member } = await rememberApp(t, 'sqlite', true, false)
  const errors: Array<{ code?: string; message: string }> = []
  app.router.group({ middleware: ['web'] }, () =>
    app.router.post('/login-remembered', async ({ auth }) => {
      await auth.login(member, { remember: true }).catch((error: { code?: string; message: string }) => errors.push(error))
      return { ok: true }
    }),
  )
  const client = new TestClient(app)
  await client.get('/me')
  t.is((await client.json('POST', '/login-remembered')).status, 200)
  t.is(errors[0]?.code, 'E_REMEMBER_TABLE_OUTDATED')
  t.regex(errors[0]!.message, /previous_token_hash[\s\S]*0008_add_rotation_to_remember_tokens/)
})

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

test('a password change ends remembered devices: by the fingerprint even when nothing deletes the rows, and at once with passwordChanged', async (t) => {
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

  // With passwordChanged: every row of the user goes, and this browser gets a new token.
  const tablet = await loggedIn(app, true, 'secret-two')
  const before = laptop.cookies.get('remember_web')!.value
  t.is((await laptop.json('POST', '/password', { password: 'secret-three', forget: true })).status, 200)
  const left = await rows(app)
  t.is(left.length, 1, 'only the new token of the browser that changed it')
  t.not(laptop.cookies.get('remember_web')!.value, before)
  t.is((await laptop.json('GET', '/me')).status, 200, 'this session stays logged in: it now belongs to the new series')
  t.is((await tablet.json('GET', '/me')).status, 401, 'the session the tablet logged in with remember ends with its series')
  laptop.cookies.delete('kiln_session')
  t.is((await laptop.json('GET', '/me')).status, 200)
  tablet.cookies.delete('kiln_session')
  t.is((await tablet.json('GET', '/me')).status, 401)

  // keepThisDevice: false ends every remembered device, this one too, but not this session.
  t.is((await laptop.json('POST', '/password', { password: 'secret-four', forget: true, keep: false })).status, 200)
  t.is((await rows(app)).length, 0)
  t.false(laptop.cookies.has('remember_web'))
  t.is((await laptop.json('GET', '/me')).status, 200)
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

import { randomBytes } from 'node:crypto'
import test, { type ExecutionContext } from 'ava'
import { Redis } from 'ioredis'
import { runWithApp, type Application } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { Mail, type MailFake } from '../../plugins/mail/index.ts'
import { PersonalAccessToken } from '../../plugins/tok/index.ts'
import { ResetPassword } from '../../app-template/app/mail/reset-password.ts'
import { starterApp } from '../fixtures/starter-app.ts'
import { endpointOf, snapshots } from '../plugins/comp/comp-fixtures.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

async function logIn(app: Application, password = 'password'): Promise<TestClient> {
  const client = new TestClient(app)
  await client.get('/')
  const res = await client.json('POST', '/login', { email: 'test@example.com', password })
  if (res.status !== 200) throw new Error(`login answered ${res.status}`)
  return client
}

const loggedIn = async (client: TestClient) => /Welcome back/.test(await (await client.get('/', { accept: 'text/html' })).text())
/** A first-party SPA's call: the session cookie from a stateful domain (config/tok.ts). */
const spaUser = async (client: TestClient) => (await client.json('GET', '/user', undefined, { referer: 'http://localhost/' })).status
const tokenCount = (app: Application) => runWithApp(app, () => PersonalAccessToken.query().count())

/** The link of the newest reset mail, as a path with its query (as password-reset.test.ts reads it). */
function mailedLink(fake: MailFake): string {
  const mail = fake.sent(ResetPassword).at(-1)!
  const url = new URL(/Reset password \((https?:\/\/\S+)\)/.exec(mail.rendered!.text)![1]!)
  return url.pathname + url.search
}

/** S1 is logged out: /profile sends it to /login, and the pages it had open can no longer act. */
async function assertLoggedOut(t: ExecutionContext, app: Application, client: TestClient, open: { profile: ComponentTest; tokens: ComponentTest }) {
  const page = await client.get('/profile', { accept: 'text/html' })
  t.is(page.status, 302)
  t.is(page.header('location'), '/login')
  t.false(await loggedIn(client))
  const tokens = await tokenCount(app)
  // The pages it had open: refused (the session they were issued in is gone), nothing done.
  await open.tokens
    .set({ name: 'stolen', abilities: ['*'] })
    .call('create')
    .assertStatus(419)
  await open.profile.set('name', 'Mallory').call('updateDetails').assertStatus(419)
  t.is(await tokenCount(app), tokens, 'no token minted')
  t.is(await spaUser(client), 401, 'nor through the API as a first-party SPA')
  // Reloaded, as the browser does on a 419: the login page, and still nothing reachable.
  t.is((await client.get('/tokens', { accept: 'text/html' })).header('location'), '/login')
  t.is((await client.json('GET', '/user')).status, 401)
}

test('a password reset by mail from elsewhere ends the session that was logged in before it; the resetting browser is logged in', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const s1 = await logIn(app)
  const open = { profile: await ComponentTest.visit(s1, '/profile', 'profile'), tokens: await ComponentTest.visit(s1, '/tokens', 'token-manager') }
  t.is(await spaUser(s1), 200)

  const resetting = new TestClient(app)
  await ComponentTest.visit(resetting, '/forgot-password', 'forgot-password').set('email', 'test@example.com').call('send').assertHasNoErrors()
  await ComponentTest.visit(resetting, mailedLink(fake), 'reset-password')
    .set('password', 'a brand new secret')
    .set('password_confirmation', 'a brand new secret')
    .call('save')
    .assertHasNoErrors()
    .assertRedirect('/')

  await assertLoggedOut(t, app, s1, open)
  t.true(await loggedIn(resetting), 'the resetting browser is logged in')
  t.true((await resetting.get('/profile', { accept: 'text/html' })).status === 200)
})

/** S1 and S2 logged in; S2 changes the password on /profile; S1 ends, S2 stays (new session id) and can still act. */
async function passwordChangeEndsOtherSessions(t: ExecutionContext, app: Application) {
  const [s1, s2] = [await logIn(app), await logIn(app)]
  const open = { profile: await ComponentTest.visit(s1, '/profile', 'profile'), tokens: await ComponentTest.visit(s1, '/tokens', 'token-manager') }
  t.is(await spaUser(s1), 200)

  const profile = await ComponentTest.visit(s2, '/profile', 'profile')
  const before = s2.cookies.get('kiln_session')!.value
  await profile
    .set({ current_password: 'password', password: 'a new passphrase', password_confirmation: 'a new passphrase' })
    .call('updatePassword')
    .assertHasNoErrors()
    .assertSet('saved', 'password')
  t.not(s2.cookies.get('kiln_session')!.value, before, 'the browser that made the change has a new session id')

  await assertLoggedOut(t, app, s1, open)

  // S2 still acts, from the page it has open (its next update, with the page's CSRF token) and on new pages.
  await profile.set('name', 'Still Me').call('updateDetails').assertHasNoErrors().assertSet('saved', 'details')
  t.true(await loggedIn(s2))
  const tokens = await tokenCount(app)
  await ComponentTest.visit(s2, '/tokens', 'token-manager')
    .set({ name: 'laptop', abilities: ['*'] })
    .call('create')
    .assertHasNoErrors()
  t.is(await tokenCount(app), tokens + 1)
  t.is(await spaUser(s2), 200)
}

test('a password change on /profile ends the other sessions (no profile, no tokens, no API); the changing browser stays logged in with a new session id', async (t) => {
  await passwordChangeEndsOtherSessions(t, await starterApp(t, 'sqlite'))
})

test('sessions on Redis: a password change ends the other sessions all the same (the check reads the shared session data)', async (t) => {
  const name = `Takeover ${randomBytes(3).toString('hex')}`
  const app = await starterApp(t, 'sqlite', { APP_NAME: name, SESSION_DRIVER: 'redis', SESSION_COOKIE: 'kiln_session', REDIS_URL })
  const redis = new Redis(REDIS_URL)
  const slug = name.toLowerCase().replace(' ', '_')
  t.teardown(async () => {
    const keys = await redis.keys(`${slug}:*`)
    if (keys.length) await redis.del(...keys)
    redis.disconnect()
  })
  await passwordChangeEndsOtherSessions(t, app)
  t.true((await redis.keys(`${slug}:sessions:*`)).length > 0, 'the sessions lived in Redis')
})

test('the page keeps working after a password change: its next update goes to an address of the new session, with the CSRF token it had', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = await logIn(app)
  const html = await (await client.get('/profile', { accept: 'text/html' })).text()
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(html)![1]!
  const send = (endpoint: string, snapshot: ReturnType<typeof snapshots>[number], calls: unknown[], updates: unknown[] = []) =>
    client.json(
      'POST',
      endpoint,
      { fingerprint: snapshot.fingerprint, serverMemo: snapshot.serverMemo, updates, calls, island: null },
      { 'x-csrf-token': csrf },
    )
  const changed = await send(
    endpointOf(html),
    snapshots(html)[0]!,
    [{ method: 'updatePassword', params: [] }],
    [
      ['current_password', 'password'],
      ['password', 'a new passphrase'],
      ['password_confirmation', 'a new passphrase'],
    ],
  )
  t.is(changed.status, 200)
  const answer = (await changed.json()) as { effects: { endpoint: string; errors: object }; serverMemo: ReturnType<typeof snapshots>[number]['serverMemo'] }
  t.deepEqual(answer.effects.errors, {})
  const next = await send(answer.effects.endpoint, { fingerprint: snapshots(html)[0]!.fingerprint, serverMemo: answer.serverMemo }, [
    { method: '$refresh', params: [] },
  ])
  t.is(next.status, 200, 'neither refused as another session (419) nor for its CSRF token')
})

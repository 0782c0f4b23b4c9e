import test, { type ExecutionContext } from 'ava'
import { runWithApp, type Application } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { Mail, type MailableClass, type MailFake } from '../../plugins/mail/index.ts'
import { EmailChanged } from '../../app-template/app/mail/email-changed.ts'
import { ResetPassword } from '../../app-template/app/mail/reset-password.ts'
import { VerifyEmail } from '../../app-template/app/mail/verify-email.ts'
import { User } from '../../app-template/app/models/user.ts'
import { starterApp } from '../fixtures/starter-app.ts'

const OWNER = 'test@example.com'

/** The path and query of the link labelled `label` in the newest mail of that kind to `to`. */
function linkIn(fake: MailFake, kind: MailableClass, to: string, label: string): string {
  const mail = fake
    .sent(kind)
    .filter((sent) => sent.hasTo(to))
    .at(-1)
  if (!mail) throw new Error(`no ${kind.name} mail to ${to}`)
  const match = new RegExp(`${label} \\((https?://\\S+)\\)`).exec(mail.rendered!.text)
  if (!match) throw new Error(`no "${label}" link in: ${mail.rendered!.text}`)
  const url = new URL(match[1]!)
  return url.pathname + url.search
}

const undoLink = (fake: MailFake, to: string) => linkIn(fake, EmailChanged, to, 'Undo this change')

async function logIn(app: Application, email: string, password: string, remember = false): Promise<TestClient> {
  const client = new TestClient(app)
  await client.get('/')
  const res = await client.json('POST', '/login', { email, password, remember })
  if (res.status !== 200) throw new Error(`login answered ${res.status}`)
  return client
}

/** What /login answers a fresh browser for these credentials. */
async function loginStatus(app: Application, email: string, password: string): Promise<number> {
  const client = new TestClient(app)
  await client.get('/')
  return (await client.json('POST', '/login', { email, password })).status
}

const user = (app: Application) => runWithApp(app, async () => (await User.find(1))!)
const loggedIn = async (client: TestClient) => /Welcome back/.test(await (await client.get('/', { accept: 'text/html' })).text())
const bearer = async (app: Application, token: string) =>
  (await new TestClient(app).json('GET', '/user', undefined, { authorization: `Bearer ${token}` })).status

/** Logged in with the owner's password, the attacker changes the email to `to`. */
async function changeEmail(client: TestClient, to: string, password = 'password') {
  await ComponentTest.visit(client, '/profile', 'profile')
    .set({ email: to, email_password: password })
    .call('updateDetails')
    .assertHasNoErrors()
    .assertSet('saved', 'details-email')
}

/** The attacker verifies their address (they read its mail) and mints a token on /tokens. */
async function mintToken(fake: MailFake, client: TestClient, address: string): Promise<string> {
  const verified = await client.get(linkIn(fake, VerifyEmail, address, 'Verify email address'), { accept: 'text/html' })
  if (verified.status !== 302) throw new Error(`the verification link answered ${verified.status}`)
  const tokens = await ComponentTest.visit(client, '/tokens', 'token-manager')
    .set({ name: 'mine now', abilities: ['*'] })
    .call('create')
    .assertHasNoErrors()
  return String(tokens.get('created'))
}

/** The owner opens the link, sees what the button does, and presses it. */
async function restoreFrom(app: Application, link: string) {
  return ComponentTest.visit(new TestClient(app), link, 'restore-email').assertSee('Restore my email address').call('restore').assertHasNoErrors()
}

async function assertUnchanged(t: ExecutionContext, app: Application, email: string, attacker: TestClient, token: string) {
  const now = await user(app)
  t.is(now.email, email, 'the email stays')
  t.true(await loggedIn(attacker), 'the attacker is still logged in')
  t.is(await bearer(app, token), 200, 'the token still works')
}

/** The owner's way back, end to end, on either database. */
async function ownerTakesTheAccountBack(t: ExecutionContext, dialect: 'sqlite' | 'pgsql') {
  const app = await starterApp(t, dialect)
  const fake = runWithApp(app, () => Mail.fake())
  const attacker = await logIn(app, OWNER, 'password', true)
  await changeEmail(attacker, 'mallory@evil.test')
  const token = await mintToken(fake, attacker, 'mallory@evil.test')
  t.is(await bearer(app, token), 200)

  const link = undoLink(fake, OWNER)
  t.regex(link, /^\/email\/restore\/\d+\?expires=\d+&signature=[0-9a-f]{64}$/)
  t.regex(fake.sent(EmailChanged).at(-1)!.rendered!.text, /The link works for 7 days, without logging in\./)
  t.false(fake.sent(EmailChanged).at(-1)!.hasTo('mallory@evil.test'))

  // Opening the link (a mail scanner does) changes nothing.
  const owner = new TestClient(app)
  const page = await owner.get(link, { accept: 'text/html' })
  t.is(page.status, 200)
  const html = await page.text()
  t.regex(html, /Restore my email address/)
  t.regex(html, /test@example\.com/)
  await assertUnchanged(t, app, 'mallory@evil.test', attacker, token)
  t.is(fake.sent(ResetPassword).length, 0)

  const restored = await restoreFrom(app, link)
  restored.assertSee('Your address is restored and every browser is logged out. We mailed a link to choose a new password.')
  const now = await user(app)
  t.is(now.email, OWNER)
  t.truthy(now.email_verified_at, 'verified: the link proved the mailbox')

  // The attacker: logged out, their remembered login forgotten, their token refused, the old password useless.
  const profile = await attacker.get('/profile', { accept: 'text/html' })
  t.is(profile.status, 302)
  t.is(profile.header('location'), '/login')
  t.false(await loggedIn(attacker))
  const remembered = await runWithApp(app, async () => (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute())
  t.is(remembered.length, 0, 'no remembered login left')
  t.is(await bearer(app, token), 401)
  t.is(await loginStatus(app, OWNER, 'password'), 422, 'the password they knew is gone')

  // The reset mail went to the restored address (after the response), and gives the owner the account.
  fake.assertSent(ResetPassword, (mail) => mail.hasTo(OWNER))
  t.false(fake.sent(ResetPassword).some((mail) => mail.hasTo('mallory@evil.test')))
  await ComponentTest.visit(owner, linkIn(fake, ResetPassword, OWNER, 'Reset password'), 'reset-password')
    .set({ password: 'mine again, for good', password_confirmation: 'mine again, for good' })
    .call('save')
    .assertHasNoErrors()
    .assertRedirect('/')
  t.true(await loggedIn(await logIn(app, OWNER, 'mine again, for good')))

  // A second use of the link changes nothing: it says so, and the owner stays logged in with the new password.
  await ComponentTest.visit(new TestClient(app), link, 'restore-email')
    .assertSee('This change was already undone: the link does nothing more.')
    .assertDontSee('Restore my email address')
    .call('restore')
    .assertSee('This change was already undone')
  t.true(await loggedIn(owner))
  t.is(fake.sent(ResetPassword).length, 1, 'no second reset mail')
}

test('the notice to the old address undoes the change: the GET only shows the page; the button restores the address, verified, ends every session, remembered browser and token, and mails a reset link that works', async (t) => {
  await ownerTakesTheAccountBack(t, 'sqlite')
})

test('on PostgreSQL: the link restores the address once, ends the sessions and the token, and mails the reset link', async (t) => {
  await ownerTakesTheAccountBack(t, 'pgsql')
})

test('a tampered or expired link is refused (403) and changes nothing; the page state cannot be edited into another change', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const attacker = await logIn(app, OWNER, 'password')
  await changeEmail(attacker, 'mallory@evil.test')
  const token = await mintToken(fake, attacker, 'mallory@evil.test')
  const link = undoLink(fake, OWNER)
  const id = Number(/\/email\/restore\/(\d+)/.exec(link)![1])

  const tampered = [
    link.replace(`/restore/${id}?`, `/restore/${id + 1}?`),
    link.replace(/expires=(\d+)/, (_, n: string) => `expires=${Number(n) + 3600}`),
    link.replace(/signature=[0-9a-f]{8}/, 'signature=00000000'),
    link.replace(/&signature=.*/, ''),
  ]
  const expired = await runWithApp(app, () => app.service('signer').signRoute('email.restore', { change: id }, { ttlMinutes: -1 }))
  for (const path of [...tampered, expired]) {
    const res = await new TestClient(app).get(path, { accept: 'application/json' })
    t.is(res.status, 403, path)
    t.deepEqual(await res.json(), { message: 'Invalid signature.' })
  }
  // The component cannot be pointed at another change from an open page.
  await ComponentTest.visit(new TestClient(app), link, 'restore-email')
    .set('change', String(id + 1))
    .assertStatus(403)
  await assertUnchanged(t, app, 'mallory@evil.test', attacker, token)
  t.is(fake.sent(ResetPassword).length, 0)
})

test('the link works after the attacker changes the email again; the links mailed to the attacker cannot take it back, before or after', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const attacker = await logIn(app, OWNER, 'password')
  await changeEmail(attacker, 'mallory@evil.test')
  await changeEmail(attacker, 'eve@evil.test')
  const token = await mintToken(fake, attacker, 'eve@evil.test')
  const ownersLink = undoLink(fake, OWNER)
  const attackersLink = undoLink(fake, 'mallory@evil.test')

  // The attacker undoes their own second change first, to mallory@, and resets the password from there.
  await restoreFrom(app, attackersLink)
  t.is((await user(app)).email, 'mallory@evil.test')
  await ComponentTest.visit(new TestClient(app), linkIn(fake, ResetPassword, 'mallory@evil.test', 'Reset password'), 'reset-password')
    .set({ password: 'attacker password', password_confirmation: 'attacker password' })
    .call('save')
    .assertHasNoErrors()
  const again = await logIn(app, 'mallory@evil.test', 'attacker password')

  // The owner's link names the first change: it still works, and wins.
  ;(await restoreFrom(app, ownersLink)).assertSee('Your address is restored')
  t.is((await user(app)).email, OWNER)
  t.false(await loggedIn(again))
  t.is(await bearer(app, token), 401)
  t.is(await loginStatus(app, 'mallory@evil.test', 'attacker password'), 422)

  // The attacker's link was for a later change: undone with it, it does nothing more.
  await ComponentTest.visit(new TestClient(app), attackersLink, 'restore-email')
    .assertSee('This change was already undone')
    .assertDontSee('Restore my email address')
  t.is((await user(app)).email, OWNER)
})

test('an old address that now belongs to another account is not restored: the page says so and nothing else changes', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const attacker = await logIn(app, OWNER, 'password')
  await changeEmail(attacker, 'mallory@evil.test')
  const token = await mintToken(fake, attacker, 'mallory@evil.test')
  // The freed address is taken by a new account (in another letter case).
  await ComponentTest.visit(new TestClient(app), '/register', 'register')
    .set({ name: 'Someone Else', email: 'Test@Example.com', password: 'their password', password_confirmation: 'their password' })
    .call('register')
    .assertHasNoErrors()

  await restoreFrom(app, undoLink(fake, OWNER)).then((page) =>
    page.assertSee('test@example.com is now the address of another account, so it cannot be given back to this one. Nothing was changed.'),
  )
  await assertUnchanged(t, app, 'mallory@evil.test', attacker, token)
  t.is(fake.sent(ResetPassword).length, 0)
  t.true((await user(app)).email_verified_at !== null)
  t.is(await loginStatus(app, 'mallory@evil.test', 'password'), 200)
})

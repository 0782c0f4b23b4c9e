import { createHash } from 'node:crypto'
import test from 'ava'
import { runWithApp, type Application } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { Mail, type MailFake } from '../../plugins/mail/index.ts'
import { ResetPassword } from '../../app-template/app/mail/reset-password.ts'
import { starterApp } from '../fixtures/starter-app.ts'

/** The link of the newest reset mail, as a path with its query. */
function mailedLink(fake: MailFake): string {
  const mail = fake.sent(ResetPassword).at(-1)!
  const url = new URL(/Reset password \((https?:\/\/\S+)\)/.exec(mail.rendered!.text)![1]!)
  return url.pathname + url.search
}

async function requestLink(app: Application, email: string) {
  const client = new TestClient(app)
  return ComponentTest.visit(client, '/forgot-password', 'forgot-password').set('email', email).call('send')
}

const rows = (app: Application) => runWithApp(app, async () => (await app.service('db').kysely()).selectFrom('password_reset_tokens').selectAll().execute())

async function logIn(app: Application, password: string): Promise<number> {
  const client = new TestClient(app)
  await client.get('/')
  return (await client.json('POST', '/login', { email: 'test@example.com', password })).status
}

test('/forgot-password mails a signed reset link to the account; the table keeps only the SHA-256 of the token', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const page = await new TestClient(app).get('/forgot-password', { accept: 'text/html' })
  t.is(page.status, 200)
  t.regex(await page.text(), /<title>Forgot your password\? · /)

  await (
    await requestLink(app, ' TEST@example.com ')
  )
    .assertHasNoErrors()
    .assertSee('If an account exists for test@example.com, a password reset link is on its way.')
  fake.assertSent(ResetPassword, (mail) => mail.hasTo('test@example.com') && mail.hasSubject('Reset your password'))
  const mail = fake.sent(ResetPassword)[0]!
  t.regex(mail.rendered!.text, /Hello Test User,/)
  t.regex(
    mail.rendered!.text,
    /Reset password \(http:\/\/127\.0\.0\.1:3000\/reset-password\/[\w-]{43}\?email=test%40example\.com&expires=\d+&signature=[0-9a-f]{64}\)/,
  )
  const token = mailedLink(fake).split('/')[2]!.split('?')[0]!
  const [row] = await rows(app)
  t.is(row!.email, 'test@example.com')
  t.is(row!.token, createHash('sha256').update(token).digest('hex'), 'only a hash is stored')
  t.false(JSON.stringify(await rows(app)).includes(token))
})

test('an unknown email gets the same answer and no mail; a bad email is a field error; a second request within a minute sends nothing', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  await (await requestLink(app, 'nobody@example.com')).assertHasNoErrors().assertSee('If an account exists for nobody@example.com')
  fake.assertNothingSent()
  await (await requestLink(app, 'not an email')).assertHasErrors({ email: 'The email must be a valid email address.' })
  await requestLink(app, 'test@example.com')
  await requestLink(app, 'test@example.com')
  fake.assertSent(ResetPassword, 1)
  t.is((await rows(app)).length, 1)
})

test('the link opens the form; a new password (confirmed, 8+ characters) is set, the user logged in; the link works once', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  await requestLink(app, 'test@example.com')
  const link = mailedLink(fake)
  const client = new TestClient(app)
  const html = await (await client.get(link, { accept: 'text/html' })).text()
  t.regex(html, /value="test@example\.com" readonly/)
  t.regex(html, /autocomplete="new-password"/)

  const form = ComponentTest.visit(client, link, 'reset-password')
  await form.set('password', 'short').set('password_confirmation', 'short').call('save').assertHasErrors({ password: 'at least 8 characters' })
  await form
    .set('password', 'a brand new secret')
    .set('password_confirmation', 'something else')
    .call('save')
    .assertHasErrors({ password: 'The password confirmation does not match.' })
    .assertSet('password', '')
  t.is(await logIn(app, 'password'), 200, 'failed attempts change nothing')
  await form
    .set('password', 'a brand new secret')
    .set('password_confirmation', 'a brand new secret')
    .call('save')
    .assertHasNoErrors()
    .assertRedirect('/')
    .assertSet('password', '')
  t.regex(await (await client.get('/', { accept: 'text/html' })).text(), /Welcome back, Test User\./)
  t.is(await logIn(app, 'password'), 422)
  t.is(await logIn(app, 'a brand new secret'), 200)
  t.deepEqual(await rows(app), [], 'the token is used up')

  const again = ComponentTest.visit(new TestClient(app), link, 'reset-password')
  await again
    .set('password', 'yet another secret')
    .set('password_confirmation', 'yet another secret')
    .call('save')
    .assertHasErrors({ password: 'This password reset link is not valid any more. Ask for a new one.' })
    .assertNoRedirect()
  t.is(await logIn(app, 'a brand new secret'), 200)
})

test('a changed link, a wrong token, another email or an expired token are refused; the browser cannot swap the token', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  await requestLink(app, 'test@example.com')
  const link = mailedLink(fake)
  const signer = app.service('signer')
  const sign = (path: string, email: string, ttlMinutes = 60) => runWithApp(app, () => signer.sign(path, { ttlMinutes, params: { email } }))
  const attempt = (path: string) =>
    ComponentTest.visit(new TestClient(app), path, 'reset-password')
      .set('password', 'a brand new secret')
      .set('password_confirmation', 'a brand new secret')
      .call('save')

  // Changed by hand: the page says so and shows no form.
  for (const bad of [link.replace('email=test', 'email=maria'), link.replace(/signature=[0-9a-f]{4}/, 'signature=0000'), link.split('?')[0]!]) {
    const html = await (await new TestClient(app).get(bad, { accept: 'text/html' })).text()
    t.regex(html, /data-test="invalid-link"/, bad)
    t.notRegex(html, /wire:submit="save"/)
    await attempt(bad).assertHasErrors({ password: 'This password reset link is not valid.' })
  }
  await attempt(sign('/reset-password/not-the-token', 'test@example.com')).assertHasErrors({ password: 'not valid any more' })
  const token = link.split('/')[2]!.split('?')[0]!
  await attempt(sign(`/reset-password/${token}`, 'maria@example.com')).assertHasErrors({ password: 'not valid any more' })
  await attempt(sign(`/reset-password/${token}`, 'nobody@example.com')).assertHasErrors({ password: 'not valid any more' })
  // The token and email are locked: an update that changes them is refused.
  const page = ComponentTest.visit(new TestClient(app), link, 'reset-password')
  await page.set('token', 'other').assertStatus(403)

  // An hour and a minute old: expired, and removed.
  await runWithApp(app, async () =>
    (await app.service('db').kysely())
      .updateTable('password_reset_tokens')
      .set({ created_at: new Date(Date.now() - 61 * 60_000).toISOString() })
      .execute(),
  )
  await attempt(link).assertHasErrors({ password: 'not valid any more' })
  t.deepEqual(await rows(app), [])
  t.is(await logIn(app, 'password'), 200, 'the password never changed')
})

test('reset requests are rate-limited: 5 a minute from one address, then a clear message and no mail', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const page = ComponentTest.visit(new TestClient(app), '/forgot-password', 'forgot-password')
  for (let i = 0; i < 5; i++) await page.set('email', `nobody${i}@example.com`).call('send').assertHasNoErrors()
  await page.set('email', 'test@example.com').call('send').assertHasErrors({ email: 'Too many requests. Try again in' })
  fake.assertNothingSent()
  t.pass()
})

test('a logged-in user is sent away from /forgot-password and the reset form', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  t.is((await client.get('/forgot-password', { accept: 'text/html' })).status, 302)
  t.is((await client.get('/reset-password/abc', { accept: 'text/html' })).status, 302)
})

test('on PostgreSQL: the link resets once, an expired token is refused, and the reset verifies the email', async (t) => {
  const app = await starterApp(t, 'pgsql')
  const fake = runWithApp(app, () => Mail.fake())
  const db = () => runWithApp(app, () => app.service('db').kysely())
  await (await db()).updateTable('users').set({ email_verified_at: null }).where('email', '=', 'test@example.com').execute()
  await requestLink(app, 'test@example.com')
  const link = mailedLink(fake)
  const reset = (path: string, password: string) =>
    ComponentTest.visit(new TestClient(app), path, 'reset-password').set('password', password).set('password_confirmation', password).call('save')
  await (await reset(link, 'postgres secret')).assertHasNoErrors().assertRedirect('/')
  t.is(await logIn(app, 'postgres secret'), 200)
  t.truthy(
    (await (await db()).selectFrom('users').select('email_verified_at').where('email', '=', 'test@example.com').executeTakeFirstOrThrow()).email_verified_at,
  )
  await (await reset(link, 'another secret')).assertHasErrors({ password: 'not valid any more' })

  // A new link, made to look an hour and a minute old.
  await (await db()).deleteFrom('password_reset_tokens').execute()
  await requestLink(app, 'test@example.com')
  await (
    await db()
  )
    .updateTable('password_reset_tokens')
    .set({ created_at: new Date(Date.now() - 61 * 60_000) })
    .execute()
  await (await reset(mailedLink(fake), 'third secret')).assertHasErrors({ password: 'not valid any more' })
  t.is(await logIn(app, 'postgres secret'), 200)
})

test('a reset ends the sessions and the browsers remembered with the old password', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const fake = runWithApp(app, () => Mail.fake())
  const remembered = new TestClient(app)
  await remembered.get('/')
  t.is((await remembered.json('POST', '/login', { email: 'test@example.com', password: 'password', remember: true })).status, 200)
  await requestLink(app, 'test@example.com')
  await ComponentTest.visit(new TestClient(app), mailedLink(fake), 'reset-password')
    .set('password', 'a brand new secret')
    .set('password_confirmation', 'a brand new secret')
    .call('save')
    .assertHasNoErrors()
  const tokens = await runWithApp(app, async () => (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute())
  t.deepEqual(tokens, [])
  // Its session, logged in before the reset, ends at once; without it, the remember cookie does not bring it back.
  t.notRegex(await (await remembered.get('/', { accept: 'text/html' })).text(), /Welcome back/)
  remembered.cookies.delete('kiln_session')
  t.notRegex(await (await remembered.get('/', { accept: 'text/html' })).text(), /Welcome back/)
})

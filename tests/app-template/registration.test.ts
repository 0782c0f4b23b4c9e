import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest, type PendingComponentTest } from '../../plugins/comp/index.ts'
import { Mail } from '../../plugins/mail/index.ts'
import { User } from '../../app-template/app/models/user.ts'
import { VerifyEmail } from '../../app-template/app/mail/verify-email.ts'
import { starterApp } from '../fixtures/starter-app.ts'

const fill = (page: PendingComponentTest, fields: Record<string, string>) => {
  for (const [name, value] of Object.entries(fields)) page.set(name, value)
  return page
}

test('GET /register shows the form to guests; a logged-in user is sent home', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  const page = await client.get('/register', { accept: 'text/html' })
  t.is(page.status, 200)
  const html = await page.text()
  t.regex(html, /<title>Register · /)
  t.regex(html, /wire:submit="register"/)
  t.regex(html, /autocomplete="new-password"/)
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
  t.is((await client.get('/register', { accept: 'text/html' })).status, 302)
})

test('registering creates the user with a hashed password, logs them in, mails them a verification link and shows the notice', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const mail = runWithApp(app, () => Mail.fake())
  const client = new TestClient(app)
  await fill(ComponentTest.visit(client, '/register', 'register'), {
    name: '  Ada Lovelace ',
    email: ' Ada@Example.com',
    password: 'analytical engine',
    password_confirmation: 'analytical engine',
  })
    .call('register')
    .assertHasNoErrors()
    .assertRedirect('/verify-email')
    .assertSet('password', '')
  const user = await runWithApp(app, () => User.query().where('email', '=', 'ada@example.com').first())
  t.truthy(user, 'stored trimmed and in lower case')
  t.is(user!.name, 'Ada Lovelace')
  t.not(user!.password, 'analytical engine')
  t.true(await user!.verifyPassword('analytical engine'))
  t.is(user!.email_verified_at, null, 'not verified yet')
  mail.assertSent(VerifyEmail, (sent) => sent.hasTo('ada@example.com'))
  t.is(mail.sent(VerifyEmail).length, 1)
  const home = await client.get('/', { accept: 'text/html' })
  t.regex(await home.text(), /Welcome back, Ada Lovelace\./)
  const notice = await client.get('/verify-email', { accept: 'text/html' })
  t.regex(await notice.text(), /please open the link we just mailed to <strong>ada@example\.com<\/strong>/)
})

test('clear errors: required fields, a bad email, a short password, a confirmation that differs, an email already taken (any case); passwords never stay in the state', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const mail = runWithApp(app, () => Mail.fake())
  const client = new TestClient(app)
  const page = ComponentTest.visit(client, '/register', 'register')
  await page.call('register').assertHasErrors({
    name: 'The name field is required.',
    email: 'The email must be a valid email address.',
    password: 'The password must be at least 8 characters.',
  })
  await page.set('email', 'not an email').assertHasErrors({ email: 'valid email address' })
  await fill(page, { name: 'Ada', email: 'ada@example.com', password: 'long enough', password_confirmation: 'different' })
    .call('register')
    .assertHasErrors({ password: 'The password confirmation does not match.' })
    .assertSet('password', '')
    .assertSet('password_confirmation', '')
    .assertNoRedirect()
  await fill(page, { email: 'TEST@example.com', password: 'long enough', password_confirmation: 'long enough' })
    .call('register')
    .assertHasErrors({ email: 'The email has already been taken.' })
    .assertDontSee('long enough')
    .assertNoRedirect()
  t.is(await runWithApp(app, () => User.query().count()), 3, 'no user was added')
  mail.assertNothingSent()
  t.is((await client.json('GET', '/user')).status, 401, 'and nobody is logged in')
})

test('registration is rate-limited like login: 5 attempts a minute from one address, then a clear message', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const page = ComponentTest.visit(new TestClient(app), '/register', 'register')
  for (let i = 0; i < 5; i++) await page.call('register').assertHasErrors({ name: 'required' })
  await fill(page, { name: 'Ada', email: 'ada@example.com', password: 'long enough', password_confirmation: 'long enough' })
    .call('register')
    .assertHasErrors({ email: /Too many attempts\. Try again in \d+ seconds\./ })
    .assertNoRedirect()
  t.is(await runWithApp(app, () => User.query().where('email', '=', 'ada@example.com').first()), undefined)
})

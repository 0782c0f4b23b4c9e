import test, { type ExecutionContext } from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { PersonalAccessToken } from '../../plugins/tok/index.ts'
import { Todo } from '../../app-template/app/models/todo.ts'
import { Mail } from '../../plugins/mail/index.ts'
import { User } from '../../app-template/app/models/user.ts'
import { VerifyEmail } from '../../app-template/app/mail/verify-email.ts'
import { EmailChanged } from '../../app-template/app/mail/email-changed.ts'
import { starterApp } from '../fixtures/starter-app.ts'
import { endpointOf, snapshots } from '../plugins/comp/comp-fixtures.ts'

async function loggedIn(t: ExecutionContext, remember = false) {
  const app = await starterApp(t, 'sqlite')
  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password', remember })).status, 200)
  return { app, client }
}

const userByEmail = (app: Parameters<typeof runWithApp>[0], email: string) => runWithApp(app, () => User.query().where('email', '=', email).first())

test('the profile starts with the name and email; updating them validates, refuses an email taken by someone else, and saves; a new address must be verified again', async (t) => {
  const { app, client } = await loggedIn(t)
  const mail = runWithApp(app, () => Mail.fake())
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  await profile.assertSet('name', 'Test User').assertSet('email', 'test@example.com')
  await profile.set('name', ' ').set('email', 'nope').call('updateDetails').assertHasErrors({
    name: 'The name field is required.',
    email: 'The email must be a valid email address.',
  })
  await profile
    .set({ name: 'Ada', email: 'Maria@example.com', email_password: 'password' })
    .call('updateDetails')
    .assertHasErrors({ email: 'The email has already been taken.' })
  t.is((await userByEmail(app, 'test@example.com'))!.name, 'Test User', 'nothing saved')
  await profile.set('name', 'Ada').set('email', 'test@example.com').call('updateDetails').assertHasNoErrors().assertSet('saved', 'details')
  t.truthy((await userByEmail(app, 'test@example.com'))!.email_verified_at, 'the same address stays verified')
  mail.assertNothingSent()
  await profile
    .set('email', ' Ada@Example.com ')
    .set('email_password', 'password')
    .call('updateDetails')
    .assertHasNoErrors()
    .assertSet('saved', 'details-email')
    .assertSet('email', 'ada@example.com')
    .assertSee('We mailed a link to your new address')
  const updated = (await userByEmail(app, 'ada@example.com'))!
  t.is(updated.name, 'Ada')
  t.is(updated.email_verified_at, null, 'the new address is not verified yet')
  mail.assertSent(VerifyEmail, (sent) => sent.hasTo('ada@example.com'))
  // The same email in another case is still one's own.
  await profile.set('email', 'ADA@example.com').call('updateDetails').assertHasNoErrors()
  t.is((await userByEmail(app, 'ada@example.com'))!.name, 'Ada')
  t.regex(await (await client.get('/', { accept: 'text/html' })).text(), /Welcome back, Ada\./)
})

test('changing the password needs the current one and a matching confirmation; passwords never stay in the state; other remembered browsers must log in again', async (t) => {
  const { app, client } = await loggedIn(t, true)
  const other = new TestClient(app)
  await other.get('/')
  t.is((await other.json('POST', '/login', { email: 'test@example.com', password: 'password', remember: true })).status, 200)
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  await profile
    .set('current_password', 'wrong')
    .set('password', 'a new passphrase')
    .set('password_confirmation', 'a new passphrase')
    .call('updatePassword')
    .assertHasErrors({ current_password: 'The password is incorrect.' })
    .assertSet('current_password', '')
    .assertSet('password', '')
    .assertDontSee('a new passphrase')
  await profile.set('current_password', 'password').set('password', 'short').call('updatePassword').assertHasErrors({ password: 'at least 8 characters' })
  await profile
    .set('current_password', 'password')
    .set('password', 'a new passphrase')
    .set('password_confirmation', 'another')
    .call('updatePassword')
    .assertHasErrors({ password: 'The password confirmation does not match.' })
  t.true(await (await userByEmail(app, 'test@example.com'))!.verifyPassword('password'))
  await profile
    .set('current_password', 'password')
    .set('password', 'a new passphrase')
    .set('password_confirmation', 'a new passphrase')
    .call('updatePassword')
    .assertHasNoErrors()
    .assertSet('saved', 'password')
  t.true(await (await userByEmail(app, 'test@example.com'))!.verifyPassword('a new passphrase'))
  const loggedInAs = async (c: TestClient) => /Welcome back/.test(await (await c.get('/', { accept: 'text/html' })).text())
  t.true(await loggedInAs(client), 'this browser stays logged in')
  // The other browser's session ends; its remember cookie no longer brings it back.
  t.false(await loggedInAs(other))
  other.cookies.delete('kiln_session')
  t.false(await loggedInAs(other))
  client.cookies.delete('kiln_session')
  t.true(await loggedInAs(client), 'this browser was given a new remember cookie')
})

test('deleting the account needs the password, then removes the user, their to-dos and tokens, and logs out', async (t) => {
  const { app, client } = await loggedIn(t, true)
  const user = (await userByEmail(app, 'test@example.com'))!
  await runWithApp(app, async () => {
    await Todo.create({ user_id: user.id, title: 'Buy milk', done: false })
    await user.createToken('laptop', ['*'])
  })
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  await profile.set('delete_password', 'wrong').call('deleteAccount').assertHasErrors({ delete_password: 'The password is incorrect.' }).assertNoRedirect()
  t.truthy(await userByEmail(app, 'test@example.com'))
  await profile.set('delete_password', 'password').call('deleteAccount').assertRedirect('/')
  t.is(await userByEmail(app, 'test@example.com'), undefined)
  await runWithApp(app, async () => {
    t.is(await Todo.query().where('user_id', '=', user.id).count(), 0)
    t.is(await PersonalAccessToken.query().where('tokenable_id', '=', user.id).count(), 0)
  })
  t.notRegex(await (await client.get('/', { accept: 'text/html' })).text(), /Welcome back/)
  t.false(client.cookies.has('remember_web'))
  t.is((await (await app.service('db').kysely()).selectFrom('remember_tokens').selectAll().execute()).length, 0)
})

test('a new email address needs the current password (a name alone does not): refused without it or with a wrong one; saved with it, unverified, with a link to the new address and a notice to the old one', async (t) => {
  const { app, client } = await loggedIn(t)
  const mail = runWithApp(app, () => Mail.fake())
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  await profile.assertSeeHtml('data-test="email-password"').assertSee('Current password (only to change the email address)')
  await profile.set('name', 'Renamed').call('updateDetails').assertHasNoErrors().assertSet('saved', 'details')
  t.is((await userByEmail(app, 'test@example.com'))!.name, 'Renamed', 'a name needs no password')

  await profile
    .set('email', 'attacker@example.net')
    .call('updateDetails')
    .assertHasErrors({ email_password: 'Your current password is required to change the email address.' })
  await profile
    .set({ email: 'attacker@example.net', email_password: 'guess' })
    .call('updateDetails')
    .assertHasErrors({ email_password: 'The password is incorrect.' })
    .assertSet('email_password', '')
    .assertDontSee('guess')
  t.is(await userByEmail(app, 'attacker@example.net'), undefined, 'nothing saved')
  t.truthy((await userByEmail(app, 'test@example.com'))!.email_verified_at)
  mail.assertNothingSent()

  await profile
    .set({ email: 'new@example.com', email_password: 'password' })
    .call('updateDetails')
    .assertHasNoErrors()
    .assertSet('saved', 'details-email')
    .assertSet('email_password', '')
  const user = (await userByEmail(app, 'new@example.com'))!
  t.is(user.email_verified_at, null, 'the new address is not verified yet')
  mail.assertSent(VerifyEmail, (sent) => sent.hasTo('new@example.com'))
  mail.assertSent(EmailChanged, (sent) => sent.hasTo('test@example.com') && !sent.hasTo('new@example.com'))
  const notice = mail.sent(EmailChanged)[0]!.rendered!.text
  t.regex(notice, /The email address of your account was changed to new@example\.com/)
  t.regex(notice, /If it was not you, undo the change/)
  // The link to undo it (tests/app-template/email-restore.test.ts follows it), on APP_URL.
  t.regex(notice, /Undo this change \(http:\/\/127\.0\.0\.1:3000\/email\/restore\/\d+\?expires=\d+&signature=[0-9a-f]{64}\)/)
})

test('"Log out other browsers" needs the password: a wrong one is a field error and ends nothing; the right one logs every other browser out (remembered ones too) and keeps this one', async (t) => {
  const { app, client } = await loggedIn(t)
  const logIn = async (remember: boolean) => {
    const other = new TestClient(app)
    await other.get('/')
    t.is((await other.json('POST', '/login', { email: 'test@example.com', password: 'password', remember })).status, 200)
    return other
  }
  const [other, remembered] = [await logIn(false), await logIn(true)]
  const loggedInAs = async (c: TestClient) => /Welcome back/.test(await (await c.get('/', { accept: 'text/html' })).text())
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  await profile.assertSee('Browser sessions').assertSeeHtml('data-test="logout-other-browsers"')
  await profile.call('logoutOtherBrowsers').assertHasErrors({ browsers_password: 'The password field is required.' })
  await profile
    .set('browsers_password', 'wrong')
    .call('logoutOtherBrowsers')
    .assertHasErrors({ browsers_password: 'The password is incorrect.' })
    .assertSet('browsers_password', '')
  t.true(await loggedInAs(other), 'nothing ended')
  await profile
    .set('browsers_password', 'password')
    .call('logoutOtherBrowsers')
    .assertHasNoErrors()
    .assertSet('saved', 'browsers')
    .assertSet('browsers_password', '')
  t.false(await loggedInAs(other))
  t.false(await loggedInAs(remembered))
  remembered.cookies.delete('kiln_session')
  t.false(await loggedInAs(remembered), 'its remember cookie no longer brings it back')
  t.true(await loggedInAs(client), 'this browser stays')
  t.true(await (await userByEmail(app, 'test@example.com'))!.verifyPassword('password'), 'the password is the same')
})

test('password checks are throttled per user: after five wrong ones in a minute the sixth is refused with the throttle message, even the right password, in every form of the page', async (t) => {
  const { app, client } = await loggedIn(t)
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  for (let i = 0; i < 5; i++) {
    await profile
      .set({ current_password: `guess ${i}`, password: 'a new passphrase', password_confirmation: 'a new passphrase' })
      .call('updatePassword')
      .assertHasErrors({ current_password: 'The password is incorrect.' })
  }
  await profile
    .set({ current_password: 'password', password: 'a new passphrase', password_confirmation: 'a new passphrase' })
    .call('updatePassword')
    .assertHasErrors({ current_password: /^Too many password attempts\. Try again in \d+ seconds\.$/ })
    .assertSet('current_password', '')
  await profile.set('delete_password', 'password').call('deleteAccount').assertHasErrors({ delete_password: 'Too many password attempts.' }).assertNoRedirect()
  await profile.set('browsers_password', 'password').call('logoutOtherBrowsers').assertHasErrors({ browsers_password: 'Too many password attempts.' })
  await profile
    .set({ email: 'new@example.com', email_password: 'password' })
    .call('updateDetails')
    .assertHasErrors({ email_password: 'Too many password attempts.' })
  const user = (await userByEmail(app, 'test@example.com'))!
  t.true(await user.verifyPassword('password'), 'nothing changed')
})

test('one request checks one password: two calls that each check one, or a bundle of two profile snapshots, get one check and a refusal', async (t) => {
  const { app, client } = await loggedIn(t)
  const html = await (await client.get('/profile', { accept: 'text/html' })).text()
  // The profile open in two tabs: two snapshots of the same session.
  const otherTab = snapshots(await (await client.get('/profile', { accept: 'text/html' })).text())[0]!
  const entry = (updates: Array<[string, unknown]>, calls: string[], snapshot = snapshots(html)[0]!) => ({
    fingerprint: snapshot.fingerprint,
    serverMemo: snapshot.serverMemo,
    updates,
    calls: calls.map((method) => ({ method, params: [] })),
    island: null,
  })
  const headers = { 'x-csrf-token': client.cookie('XSRF-TOKEN') ?? '' }
  const guess: Array<[string, unknown]> = [
    ['current_password', 'wrong'],
    ['password', 'a new passphrase'],
    ['password_confirmation', 'a new passphrase'],
    ['delete_password', 'password'],
  ]
  const errorsOf = (answer: { effects: { errors: Record<string, string[]> } }) => answer.effects.errors

  // Two calls: the second one's check is refused, even with the right password.
  const two = await client.json('POST', endpointOf(html), entry(guess, ['updatePassword', 'deleteAccount']), headers)
  t.is(two.status, 200)
  const errors = errorsOf(await two.json())
  t.deepEqual(errors.current_password, ['The password is incorrect.'])
  t.regex(errors.delete_password![0]!, /^Too many password attempts\. A request may check a password only once/)
  t.truthy(await userByEmail(app, 'test@example.com'), 'the account is not deleted')

  // A bundle of two snapshots: one check in all.
  const bundle = await client.json(
    'POST',
    endpointOf(html),
    { components: [entry(guess, ['updatePassword']), entry(guess, ['updatePassword'], otherTab)] },
    headers,
  )
  t.is(bundle.status, 200)
  const [first, second] = ((await bundle.json()) as { components: Array<{ effects: { errors: Record<string, string[]> } }> }).components
  t.deepEqual(errorsOf(first!).current_password, ['The password is incorrect.'])
  t.regex(errorsOf(second!).current_password![0]!, /A request may check a password only once/)

  // Two checks counted so far (one per request): three more are allowed, then the limit.
  const profile = ComponentTest.visit(client, '/profile', 'profile')
  for (let i = 0; i < 3; i++)
    await profile.set('delete_password', 'wrong').call('deleteAccount').assertHasErrors({ delete_password: 'The password is incorrect.' })
  await profile.set('delete_password', 'wrong').call('deleteAccount').assertHasErrors({ delete_password: 'Too many password attempts. Try again in' })
})

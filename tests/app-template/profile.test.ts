import test, { type ExecutionContext } from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { PersonalAccessToken } from '../../plugins/tok/index.ts'
import { Todo } from '../../app-template/app/models/todo.ts'
import { Mail } from '../../plugins/mail/index.ts'
import { User } from '../../app-template/app/models/user.ts'
import { VerifyEmail } from '../../app-template/app/mail/verify-email.ts'
import { starterApp } from '../fixtures/starter-app.ts'

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
  await profile.set('name', 'Ada').set('email', 'Maria@example.com').call('updateDetails').assertHasErrors({ email: 'The email has already been taken.' })
  t.is((await userByEmail(app, 'test@example.com'))!.name, 'Test User', 'nothing saved')
  await profile.set('name', 'Ada').set('email', 'test@example.com').call('updateDetails').assertHasNoErrors().assertSet('saved', 'details')
  t.truthy((await userByEmail(app, 'test@example.com'))!.email_verified_at, 'the same address stays verified')
  mail.assertNothingSent()
  await profile
    .set('email', ' Ada@Example.com ')
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

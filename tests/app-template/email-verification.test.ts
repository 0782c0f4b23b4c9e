import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { Mail, type MailFake } from '../../plugins/mail/index.ts'
import { sendEmailVerification } from '../../app-template/app/auth/email-verification.ts'
import { VerifyEmail } from '../../app-template/app/mail/verify-email.ts'
import { User } from '../../app-template/app/models/user.ts'
import { starterApp } from '../fixtures/starter-app.ts'
import type { Application } from '../../core/index.ts'

/** A new user who has not verified their email, logged in through the login route. */
async function unverifiedUser(app: Application) {
  const user = await runWithApp(app, async () => {
    const user = new User()
    user.fill({ name: 'Ada Lovelace', email: 'ada@example.com' })
    await user.setPassword('analytical engine')
    await user.save()
    return user
  })
  const client = new TestClient(app)
  await client.get('/')
  const login = await client.json('POST', '/login', { email: 'ada@example.com', password: 'analytical engine' })
  if (login.status !== 200) throw new Error(`login: ${login.status}`)
  return { user, client }
}

/** The one verification mail sent so far, and the path (with its query) of its link. */
function mailedLink(fake: MailFake): { mail: VerifyEmail; path: string } {
  const [mail] = fake.sent(VerifyEmail)
  const url = new URL(/https?:\/\/\S+?(?=\))/.exec(mail!.rendered!.text)![0])
  return { mail: mail!, path: url.pathname + url.search }
}

const verifiedAt = (app: Application, id: number) =>
  runWithApp(
    app,
    async () =>
      (await (await app.service('db').kysely()).selectFrom('users').select('email_verified_at').where('id', '=', id).executeTakeFirstOrThrow())
        .email_verified_at,
  )

test('seeded users are verified; an unverified user is sent from `verified` pages to the notice (JSON: 403)', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const seeded = new TestClient(app)
  await seeded.get('/')
  await seeded.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  t.is((await seeded.get('/todos', { accept: 'text/html' })).status, 200, 'the seeder marks its users verified')

  const { client } = await unverifiedUser(app)
  const page = await client.get('/todos', { accept: 'text/html' })
  t.is(page.status, 302)
  t.is(page.header('location'), '/verify-email')
  t.is((await client.get('/tokens', { accept: 'text/html' })).header('location'), '/verify-email')
  const json = await client.json('GET', '/todos')
  t.is(json.status, 403)
  t.deepEqual(await json.json(), { message: 'Your email address is not verified.' })
  const notice = await client.get('/verify-email', { accept: 'text/html' })
  t.is(notice.status, 200)
  t.regex(await notice.text(), /please open the link we just mailed to <strong>ada@example\.com<\/strong>/)
  t.is((await client.get('/profile', { accept: 'text/html' })).status, 200, 'the profile stays open: the email can be fixed there')
  t.is((await new TestClient(app).get('/verify-email', { accept: 'text/html' })).header('location'), '/login', 'guests log in first')
})

test('sendEmailVerification mails a signed link; opening it verifies the email, from any browser, and /todos opens', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const { user, client } = await unverifiedUser(app)
  const fake = runWithApp(app, () => Mail.fake())
  await runWithApp(app, () => sendEmailVerification(user))
  fake.assertSent(VerifyEmail, (mail) => mail.hasTo('ada@example.com') && mail.hasSubject('Verify your email address'))
  const { mail, path } = mailedLink(fake)
  t.regex(mail.rendered!.text, /^Verify your email address\n\nHello Ada Lovelace,/)
  t.regex(mail.rendered!.text, /Verify email address \(http:\/\/127\.0\.0\.1:3000\/verify-email\/\d+\/[0-9a-f]{64}\?expires=\d+&signature=[0-9a-f]{64}\)/)
  t.regex(mail.rendered!.html!, /<a href="http:\/\/127\.0\.0\.1:3000\/verify-email\//)
  t.is(await verifiedAt(app, user.id), null)

  // Another browser (not logged in) opens the link: the mailbox is proven, and the guest is asked to log in, told so.
  const guest = new TestClient(app)
  const other = await guest.get(path, { accept: 'text/html' })
  t.is(other.status, 302)
  t.is(other.header('location'), '/login')
  t.regex(await (await guest.get('/login', { accept: 'text/html' })).text(), /data-test="status">Your email address has been verified\. Log in to continue\.</)
  t.truthy(await verifiedAt(app, user.id))
  const again = await client.get(path, { accept: 'text/html' })
  t.is(again.header('location'), '/verify-email', 'a second visit is harmless')
  t.regex(await (await client.get('/verify-email', { accept: 'text/html' })).text(), /data-test="verified"/)
  t.is((await client.get('/todos', { accept: 'text/html' })).status, 200)
})

test('a changed, expired or foreign verification link is refused with 403 and verifies nothing', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const { user, client } = await unverifiedUser(app)
  const fake = runWithApp(app, () => Mail.fake())
  await runWithApp(app, () => sendEmailVerification(user))
  const { path } = mailedLink(fake)
  const url = new URL(path, 'http://x')
  const tampered = [
    path.replace(`/verify-email/${user.id}/`, '/verify-email/1/'),
    path.replace(/signature=[0-9a-f]{4}/, 'signature=0000'),
    path.replace(/expires=\d+/, `expires=${Math.floor(Date.now() / 1000) + 9999}`),
    `${url.pathname}?expires=1&signature=${url.searchParams.get('signature')}`,
    url.pathname,
  ]
  for (const bad of tampered) {
    const res = await client.json('GET', bad)
    t.is(res.status, 403, bad)
    t.deepEqual(Object.keys(await res.json()), ['message'])
  }
  // Signed for this user, but the email changed since: the hash no longer matches.
  await runWithApp(app, async () => {
    user.email = 'ada.lovelace@example.com'
    await user.save()
  })
  const stale = await client.json('GET', path)
  t.is(stale.status, 403)
  t.deepEqual(await stale.json(), { message: 'This verification link is not valid.' })
  t.is(await verifiedAt(app, user.id), null)
  // An expired one: signed an hour and a minute ago.
  const expired = await runWithApp(app, () => app.service('signer').sign(new URL(path, 'http://x').pathname, { ttlMinutes: -1 }))
  t.is((await client.json('GET', expired)).status, 403)
})

test('"Resend verification email" on the notice sends a new link, at most 3 a minute; a verified user is sent home', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const { user, client } = await unverifiedUser(app)
  const fake = runWithApp(app, () => Mail.fake())
  const notice = ComponentTest.visit(client, '/verify-email', 'verify-email-notice')
  await notice.assertDontSee('A new verification link has been sent').call('resend').assertSee('A new verification link has been sent').assertNoRedirect()
  fake.assertSent(VerifyEmail, (mail) => mail.hasTo('ada@example.com'))
  await notice.call('resend').call('resend')
  fake.assertSent(VerifyEmail, 3)
  await notice.call('resend').assertSee('Too many requests. Try again in')
  fake.assertSent(VerifyEmail, 3)

  await runWithApp(app, async () => {
    user.forceFill({ email_verified_at: new Date() })
    await user.save()
  })
  await ComponentTest.visit(client, '/verify-email', 'verify-email-notice').assertSee('is verified').call('resend').assertRedirect('/')
  t.is(fake.sent(VerifyEmail).length, 3)
})

import test from 'ava'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { mimePart, startSmtpServer } from '../fixtures/smtp-server.ts'
import { starterApp } from '../fixtures/starter-app.ts'

test('a reset link sent through a real SMTP server resets the password', async (t) => {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  // The starter's config/mail.ts, pointed at the test server through the environment, as a deployment would.
  const app = await starterApp(t, 'sqlite', {
    MAIL_MAILER: 'smtp',
    MAIL_HOST: '127.0.0.1',
    MAIL_PORT: String(smtp.port),
    MAIL_FROM_ADDRESS: 'noreply@kiln.test',
  })

  await ComponentTest.visit(new TestClient(app), '/forgot-password', 'forgot-password').set('email', 'test@example.com').call('send').assertHasNoErrors()
  const mail = await smtp.next()
  t.is(mail.from, 'noreply@kiln.test')
  t.deepEqual(mail.to, ['test@example.com'])
  t.regex(mail.raw, /^Subject: Reset your password\r$/m)
  const text = mimePart(mail.raw, 'text/plain')
  const link = new URL(/Reset password \((https?:\/\/\S+)\)/.exec(text)![1]!)
  t.is(link.origin, 'http://127.0.0.1:3000', "APP_URL's origin")
  t.regex(mimePart(mail.raw, 'text/html'), /<a href="http:\/\/127\.0\.0\.1:3000\/reset-password\//)

  const browser = new TestClient(app)
  await ComponentTest.visit(browser, link.pathname + link.search, 'reset-password')
    .set('password', 'mailed and reset')
    .set('password_confirmation', 'mailed and reset')
    .call('save')
    .assertHasNoErrors()
    .assertRedirect('/')

  const client = new TestClient(app)
  await client.get('/')
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 422)
  t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'mailed and reset' })).status, 200)
})

test('forgot-password answers before the reset mail is sent (the mail server holds it), and alike for an unknown email; the mail arrives after', async (t) => {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  const app = await starterApp(t, 'sqlite', {
    MAIL_MAILER: 'smtp',
    MAIL_HOST: '127.0.0.1',
    MAIL_PORT: String(smtp.port),
    MAIL_FROM_ADDRESS: 'noreply@kiln.test',
  })
  // Each answer comes back as soon as the app gives it, not once what it deferred has run.
  const ask = (email: string) =>
    ComponentTest.visit(new TestClient(app).withoutWaitingForDeferred(), '/forgot-password', 'forgot-password').set('email', email).call('send')

  const release = smtp.hold()
  const mailArrives = smtp.next()
  const known = ask('test@example.com')
  // Whichever comes first: the answer, or the mail at the server, which holds it there (the sender waits for its reply).
  const first = await Promise.race([known.then(() => 'answer'), mailArrives.then(() => 'mail')])
  t.is(first, 'answer', 'the page answered while the mail was not sent yet')
  const knownAnswer = await known
  knownAnswer.assertStatus(200).assertHasNoErrors().assertSet('sent', true)

  const unknownAnswer = await ask('nobody@example.com')
  unknownAnswer.assertStatus(200).assertHasNoErrors().assertSet('sent', true)
  t.is(unknownAnswer.status, knownAnswer.status)
  // The same page but for the email typed and the component's random id.
  const page = (answer: ComponentTest, email: string) => answer.html.replaceAll(email, 'EMAIL').replace(answer.id, 'ID')
  t.is(page(unknownAnswer, 'nobody@example.com'), page(knownAnswer, 'test@example.com'))

  const held = await mailArrives
  release()
  await app.service('http').deferred.settled()
  t.deepEqual(held.to, ['test@example.com'])
  t.regex(held.raw, /^Subject: Reset your password\r$/m)
  t.regex(mimePart(held.raw, 'text/plain'), /Reset password \(http:\/\/127\.0\.0\.1:3000\/reset-password\//)
})

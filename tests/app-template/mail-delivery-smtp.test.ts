import test from 'ava'
import { runWithApp, type Application } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { ComponentTest } from '../../plugins/comp/index.ts'
import { mimePart, startSmtpServer } from '../fixtures/smtp-server.ts'
import { starterApp } from '../fixtures/starter-app.ts'

/** The starter's config/mail.ts, pointed at a test SMTP server through the environment, as a deployment would. */
const smtpEnv = (port: number) => ({ MAIL_MAILER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(port), MAIL_FROM_ADDRESS: 'noreply@kiln.test' })

/** Writes straight to the table, as rows saved before names were checked. */
const setUser = (app: Application, values: { name?: string; email_verified_at?: null }) =>
  runWithApp(app, async () => {
    await (await app.service('db').kysely()).updateTable('users').set(values).where('email', '=', 'test@example.com').execute()
  })

async function loggedIn(app: Application): Promise<TestClient> {
  const client = new TestClient(app)
  await client.get('/')
  const login = await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  if (login.status !== 200) throw new Error(`login: ${login.status}`)
  return client
}

/** The header block of a raw message (the body may show the name as it is: text, not headers). */
const headers = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n'))

/** What the app logs at error level, recorded as it goes (and still logged). */
function errorsLogged(app: Application): string[] {
  const logger = app.service('logger')
  const messages: string[] = []
  const error = logger.error.bind(logger)
  logger.error = ((first: unknown, message?: string, ...rest: unknown[]) => {
    messages.push(typeof first === 'string' ? first : String(message))
    return (error as (...args: unknown[]) => void)(first, message, ...rest)
  }) as typeof logger.error
  return messages
}

test('an account whose name holds a line break (saved before names were checked) still gets its verification and reset mails', async (t) => {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  const app = await starterApp(t, 'sqlite', smtpEnv(smtp.port))
  await setUser(app, { name: 'Test\r\nBcc: eve@example.com', email_verified_at: null })

  const client = await loggedIn(app)
  await ComponentTest.visit(client, '/verify-email', 'verify-email-notice').call('resend').assertStatus(200).assertSet('sent', true).assertSet('notice', '')
  const verification = await smtp.next()
  t.deepEqual(verification.to, ['test@example.com'], 'one recipient: the name added none')
  t.regex(verification.raw, /^To: "Test Bcc: eve@example\.com" <test@example\.com>\r$/m, 'the line break became a space')
  t.notRegex(headers(verification.raw), /^Bcc:/m, 'no header of its own')
  t.regex(verification.raw, /^Subject: Verify your email address\r$/m)

  await ComponentTest.visit(new TestClient(app), '/forgot-password', 'forgot-password')
    .set('email', 'test@example.com')
    .call('send')
    .assertStatus(200)
    .assertHasNoErrors()
    .assertSet('sent', true)
  const reset = await smtp.next()
  t.deepEqual(reset.to, ['test@example.com'])
  t.regex(reset.raw, /^To: "Test Bcc: eve@example\.com" <test@example\.com>\r$/m)
  t.regex(reset.raw, /^Subject: Reset your password\r$/m)
  t.regex(mimePart(reset.raw, 'text/plain'), /Reset password \(http:\/\/127\.0\.0\.1:3000\/reset-password\//)
})

test('with the mail server down, no mail path answers 500: resend and registration say so, forgot-password answers as always; each failure logged once', async (t) => {
  const smtp = await startSmtpServer()
  const port = smtp.port
  await smtp.close()
  const app = await starterApp(t, 'sqlite', smtpEnv(port))
  const logged = errorsLogged(app)
  await setUser(app, { email_verified_at: null })

  const client = await loggedIn(app)
  const notice = ComponentTest.visit(client, '/verify-email', 'verify-email-notice')
  await notice.call('resend').assertStatus(200).assertSet('sent', false).assertSet('notice', 'We could not send the mail: try again in a moment.')
  notice.assertSee('We could not send the mail: try again in a moment.')
  t.deepEqual(logged, ['The verification mail could not be sent'])

  await ComponentTest.visit(new TestClient(app), '/forgot-password', 'forgot-password')
    .set('email', 'test@example.com')
    .call('send')
    .assertStatus(200)
    .assertHasNoErrors()
    .assertSee('If an account exists for test@example.com, a password reset link is on its way.')
  t.deepEqual(logged, ['The verification mail could not be sent', 'The password reset mail could not be sent'])

  const guest = new TestClient(app)
  await ComponentTest.visit(guest, '/register', 'register')
    .set({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine', password_confirmation: 'analytical engine' })
    .call('register')
    .assertStatus(200)
    .assertHasNoErrors()
    .assertRedirect('/verify-email')
  const page = await guest.get('/verify-email', { accept: 'text/html' })
  t.is(page.status, 200)
  t.regex(await page.text(), /We could not send the mail: try again in a moment\./)
  t.is(logged.length, 3)
  t.is(logged[2], 'The verification mail could not be sent')
})

import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import test from 'ava'
import { runWithApp } from '../../../core/index.ts'
import { Mail, type Mailable } from '../../../plugins/mail/index.ts'
import { mailApp } from './mail-app.ts'
import { mimePart, startSmtpServer } from '../../fixtures/smtp-server.ts'

type WelcomeClass = new (name: string, link: string) => Mailable
const welcome = async (root: string) => ((await import(pathToFileURL(join(root, 'app/mail/welcome.ts')).href)) as { Welcome: WelcomeClass }).Welcome

const smtpConfig = (port: number, extra = '') => `import { defineConfig } from 'kiln-framework'
export default defineConfig({ default: 'smtp', mailers: { smtp: { driver: 'smtp', host: '127.0.0.1', port: ${port}${extra} } }, from: { address: 'shop@example.com', name: 'Shop' } })
`

test('the smtp mailer delivers to a real SMTP server: envelope, headers, the text and HTML parts with the link', async (t) => {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  const { app, root } = await mailApp(t, { 'config/mail.ts': smtpConfig(smtp.port) })
  const Welcome = await welcome(root)
  const sent = await runWithApp(app, () =>
    Mail.to({ email: 'ada@example.com', name: 'Ada Lovelace' }).bcc('archive@example.com').send(new Welcome('Ada', 'https://shop.test/start?token=abc&x=1')),
  )
  t.deepEqual(sent?.accepted, ['ada@example.com', 'archive@example.com'])
  const mail = await smtp.next()
  t.is(mail.from, 'shop@example.com')
  t.deepEqual(mail.to, ['ada@example.com', 'archive@example.com'])
  t.regex(mail.raw, /^From: Shop <shop@example\.com>\r$/m)
  t.regex(mail.raw, /^To: Ada Lovelace <ada@example\.com>\r$/m)
  t.regex(mail.raw, /^Subject: Welcome to the shop\r$/m)
  t.notRegex(mail.raw, /^Bcc:/m, 'a blind copy is in the envelope only')
  t.regex(mimePart(mail.raw, 'text/plain'), /Your account is ready: open the shop \(https:\/\/shop\.test\/start\?token=abc&x=1\)/)
  // Handlebars escapes `=` and `&` in the attribute; a mail client reads the same address.
  t.regex(mimePart(mail.raw, 'text/html'), /<a href="https:\/\/shop\.test\/start\?token&#x3D;abc&amp;x&#x3D;1">open the shop<\/a>/)
})

test('a display name with control characters is delivered under a safe name (each run a space): no header, no extra recipient', async (t) => {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  const { app, root } = await mailApp(t, { 'config/mail.ts': smtpConfig(smtp.port) })
  const Welcome = await welcome(root)
  const names = ['Ada\r\nBcc: eve@example.com', 'Ada\u0000\tLovelace', 'Ada\u2028Lovelace\u0085', '\n\r']
  for (const name of names) {
    const sent = await runWithApp(app, () => Mail.to({ email: 'ada@example.com', name }).send(new Welcome('Ada', 'https://shop.test/')))
    t.deepEqual(sent?.accepted, ['ada@example.com'])
  }
  const received = [await smtp.next(), await smtp.next(), await smtp.next(), await smtp.next()]
  for (const mail of received) t.deepEqual(mail.to, ['ada@example.com'], 'the envelope holds the one recipient')
  t.regex(received[0]!.raw, /^To: "Ada Bcc: eve@example\.com" <ada@example\.com>\r$/m)
  t.notRegex(received[0]!.raw, /^Bcc:/m)
  t.regex(received[1]!.raw, /^To: Ada Lovelace <ada@example\.com>\r$/m)
  t.regex(received[2]!.raw, /^To: Ada Lovelace <ada@example\.com>\r$/m)
  t.regex(received[3]!.raw, /^To: ada@example\.com\r$/m, 'nothing but control characters: no name')
})

test('the smtp mailer logs in with the configured username and password; a wrong password is an error, not a silent loss', async (t) => {
  const smtp = await startSmtpServer({ username: 'shop', password: 's3cret' })
  t.teardown(() => smtp.close())
  const { app, root } = await mailApp(t, { 'config/mail.ts': smtpConfig(smtp.port, ", username: 'shop', password: 's3cret'") })
  const Welcome = await welcome(root)
  await runWithApp(app, () => Mail.to('ada@example.com').send(new Welcome('Ada', 'https://shop.test/')))
  t.is((await smtp.next()).user, 'shop')

  const wrong = await mailApp(t, { 'config/mail.ts': smtpConfig(smtp.port, ", username: 'shop', password: 'nope'") })
  await t.throwsAsync(
    runWithApp(wrong.app, () => Mail.to('ada@example.com').send(new Welcome('Ada', 'https://shop.test/'))),
    { message: /Invalid login|Invalid username or password/ },
  )
})

test('a queued mail goes through the queue to the SMTP server', async (t) => {
  const smtp = await startSmtpServer()
  t.teardown(() => smtp.close())
  const { app, root } = await mailApp(t, { 'config/mail.ts': smtpConfig(smtp.port) })
  const Welcome = await welcome(root)
  await runWithApp(app, async () => {
    await Mail.to('ada@example.com').queue(new Welcome('Ada', 'https://shop.test/q'))
    await app.service('queue').flush()
  })
  const mail = await smtp.next()
  t.deepEqual(mail.to, ['ada@example.com'])
  t.regex(mimePart(mail.raw, 'text/plain'), /https:\/\/shop\.test\/q/)
})

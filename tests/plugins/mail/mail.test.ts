import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import test from 'ava'
import { createApp, KilnError, Queue, runWithApp } from '../../../core/index.ts'
import { htmlToText, Mail, Mailable, type MailMessage } from '../../../plugins/mail/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { MAIL_APP_FILES, mailApp } from './mail-app.ts'

type WelcomeClass = new (name: string, link: string) => Mailable & { name: string; link: string }
const welcome = async (root: string) => ((await import(pathToFileURL(join(root, 'app/mail/welcome.ts')).href)) as { Welcome: WelcomeClass }).Welcome

test('the log transport (the default) writes the mail to the log, readable: headers, the text with its link', async (t) => {
  const { app, root } = await mailApp(t)
  const Welcome = await welcome(root)
  const sent = await runWithApp(app, () => Mail.to({ email: 'ada@example.com', name: 'Ada' }).send(new Welcome('Ada', 'https://shop.test/start?x=1&y=2')))
  t.deepEqual(sent?.accepted, ['ada@example.com'])
  const lines = readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8').trim().split('\n')
  const msg = (JSON.parse(lines.at(-1)!) as { msg: string }).msg
  t.regex(msg, /^Mail to Ada <ada@example\.com>: Welcome to the shop\n/)
  t.regex(msg, /\nFrom: hello@example\.com|\nFrom: Shop <hello@example\.com>/)
  t.regex(
    msg,
    /\nSubject: Welcome to the shop\n\nHello Ada\n\nYour account is ready: open the shop \(https:\/\/shop\.test\/start\?x=1&y=2\)\.\n\n- one\n- two\n\nShop\n/,
  )
  t.notRegex(msg, /ignored|color: red/, 'head, title and style are not text')
})

test('Mail.fake(): assertSent with a predicate, assertNotSent, assertNothingSent, sent() gives the rendered mail; failures say what was sent', async (t) => {
  const { app, root } = await mailApp(t)
  const Welcome = await welcome(root)
  await runWithApp(app, async () => {
    const fake = Mail.fake()
    t.notThrows(() => fake.assertNothingSent())
    t.throws(() => fake.assertSent(Welcome), { message: 'Expected Welcome to be sent; sent: nothing.' })
    await Mail.to('ada@example.com').cc('boss@example.com').send(new Welcome('Ada', 'https://shop.test/a'))
    fake.assertSent(Welcome)
    fake.assertSent(Welcome, 1)
    fake.assertSent(Welcome, (mail) => mail.hasTo('ada@example.com') && mail.hasCc('boss@example.com') && mail.hasSubject('Welcome to the shop'))
    fake.assertNotSent(Welcome, (mail) => mail.hasTo('eve@example.com'))
    t.throws(() => fake.assertSent(Welcome, (mail) => mail.hasTo('eve@example.com')), {
      message: /Expected Welcome to be sent matching the predicate; sent: Welcome\./,
    })
    t.throws(() => fake.assertNothingSent(), { message: 'Expected no mail to be sent, got Welcome.' })
    t.throws(() => fake.assertNotSent(Welcome))
    t.throws(() => fake.assertSent(Welcome, 2), { message: 'Expected Welcome to be sent 2 times, got 1.' })
    const [mail] = fake.sent(Welcome)
    t.is(mail!.name, 'Ada')
    t.regex(mail!.rendered!.html!, /<a href="https:\/\/shop\.test\/a">/)
    t.regex(mail!.rendered!.text, /open the shop \(https:\/\/shop\.test\/a\)/)
    t.deepEqual(mail!.rendered!.from, { address: 'hello@example.com', name: 'Shop' })
    fake.assertNothingQueued()
    Mail.restore()
  })
  t.falsy(readFileSync(join(root, 'storage/logs/kiln.log'), 'utf8').includes('Mail to'), 'a faked mail reaches no transport')
})

test('envelope() and content() instead of build(); a text view; the class name as subject; from config/mail.ts', async (t) => {
  class Receipt extends Mailable {
    constructor(public total: number) {
      super()
    }
    envelope() {
      return { to: 'ada@example.com', replyTo: { address: 'billing@example.com', name: 'Billing' }, headers: { 'X-Tag': 'receipt' } }
    }
    content() {
      return { view: 'emails/receipt', text: 'emails/receipt-text', with: { currency: 'EUR' } }
    }
  }
  const { app } = await mailApp(t, {
    'config/mail.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ from: { address: 'orders@shop.test', name: 'Orders' } })
`,
    'resources/views/emails/receipt.hbs': '<p>Total: {{total}} {{currency}}</p>',
    'resources/views/emails/receipt-text.hbs': 'Total: {{total}} {{currency}} (text)',
  })
  await runWithApp(app, async () => {
    const fake = Mail.fake()
    await Mail.send(new Receipt(12))
    const [mail] = fake.sent(Receipt)
    const message = mail!.rendered as MailMessage
    t.is(message.subject, 'Receipt')
    t.deepEqual(message.from, { address: 'orders@shop.test', name: 'Orders' })
    t.deepEqual(message.replyTo, [{ address: 'billing@example.com', name: 'Billing' }])
    t.deepEqual(message.headers, { 'X-Tag': 'receipt' })
    t.is(message.html, '<p>Total: 12 EUR</p>')
    t.is(message.text, 'Total: 12 EUR (text)')
    t.true(mail!.hasFrom('orders@shop.test'))
  })
})

test('queued mail: rendered when queued, sent by the queue through the mailer; a custom transport added with Mail.extend', async (t) => {
  const { app, root } = await mailApp(t, {
    'config/mail.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ default: 'array', mailers: { array: { driver: 'array' } } })
`,
    'config/queue.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ default: 'memory', connections: { memory: { driver: 'memory' } } })
`,
  })
  const Welcome = await welcome(root)
  const delivered: MailMessage[] = []
  await runWithApp(app, async () => {
    Mail.extend('array', () => ({
      async send(message: MailMessage) {
        delivered.push(message)
        return { messageId: 'x', accepted: message.to.map((a) => a.address), rejected: [] }
      },
    }))
    const mail = new Welcome('Ada', 'https://shop.test/q')
    await Mail.to('ada@example.com').queue(mail)
    mail.name = 'changed after queueing'
    await Queue.flush()
    t.deepEqual(Queue.failed(), [])
    t.is(delivered.length, 1)
    t.regex(delivered[0]!.text, /^Hello Ada\n/)
    t.deepEqual(delivered[0]!.to, [{ address: 'ada@example.com' }])

    const fake = Mail.fake()
    await Mail.to('bob@example.com').queue(new Welcome('Bob', 'https://shop.test/b'))
    fake.assertQueued(Welcome, (m) => m.hasTo('bob@example.com'))
    fake.assertNothingSent()
    t.throws(() => fake.assertNotQueued(Welcome))
    await Queue.flush()
    t.is(delivered.length, 1, 'a faked queue() pushes nothing')
  })
})

test('bad addresses, subjects and headers are refused with stable codes (a name with a line break is made safe); a mail without recipient or body too', async (t) => {
  const { app, root } = await mailApp(t)
  const Welcome = await welcome(root)
  class Empty extends Mailable {}
  class BadSubject extends Mailable {
    build() {
      return this.subject('Hi\r\nBcc: eve@example.com').html('<p>x</p>')
    }
  }
  await runWithApp(app, async () => {
    const fake = Mail.fake()
    const code = (fn: () => unknown) => t.throwsAsync(async () => fn(), { instanceOf: KilnError })
    t.is((await code(() => Mail.to('ada@example.com, eve@example.com').send(new Welcome('a', 'b'))))!.code, 'E_MAIL_ADDRESS')
    t.is((await code(() => Mail.to('ada@example.com\r\nBcc: eve@example.com').send(new Welcome('a', 'b'))))!.code, 'E_MAIL_ADDRESS')
    // A name is made safe rather than refused (each run of control characters a space): its owner still gets mail.
    await Mail.to({ email: 'ada@example.com', name: 'Ada\nBcc: eve@example.com' }).send(new Welcome('a', 'b'))
    t.deepEqual(fake.sent(Welcome)[0]?.rendered?.to, [{ address: 'ada@example.com', name: 'Ada Bcc: eve@example.com' }])
    t.is((await code(() => Mail.to('ada@example.com').send(new BadSubject())))!.code, 'E_MAIL_HEADER')
    t.is((await code(() => new Welcome('a', 'b').header('X-A', 'b\nc')))!.code, 'E_MAIL_HEADER')
    t.is((await code(() => Mail.send(new Welcome('a', 'b'))))!.code, 'E_MAIL_NO_RECIPIENT')
    t.is((await code(() => Mail.to('ada@example.com').send(new Empty())))!.code, 'E_MAIL_NO_BODY')
  })
})

test('an unknown default mailer stops boot, naming the configured ones; an unknown driver names the registered ones', async (t) => {
  const root = tempApp(MAIL_APP_FILES)
  const error = await t.throwsAsync(createApp({ root, env: { APP_ENV: 'test', MAIL_MAILER: 'smtpp' } }), { instanceOf: KilnError })
  t.is(error!.code, 'E_MAIL_MAILER')
  t.regex(error!.message, /The mailer "smtpp" is not configured in config\/mail\.ts\. Configured mailers: log, smtp\./)

  const { app } = await mailApp(t, {
    'config/mail.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ mailers: { postmark: { driver: 'postmark' } } })
`,
  })
  const unknown = t.throws(() => runWithApp(app, () => Mail.transport('postmark')), { instanceOf: KilnError })
  t.regex(unknown!.message, /Unknown mail transport driver "postmark" for connection "postmark" in config\/mail\.ts\. Registered drivers: log, smtp\./)
  const bad = await mailApp(t, {
    'config/mail.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig({ mailers: { smtp: { driver: 'smtp', port: 'twenty-five' } } })
`,
  })
  const smtp = t.throws(() => runWithApp(bad.app, () => Mail.transport('smtp')), { instanceOf: KilnError })
  t.regex(smtp!.message, /^Invalid configuration in config\/mail\.ts: mailers\.smtp\.port: /)
})

test('htmlToText: blocks, line breaks, lists, entities, links with their address (not twice when the label is the address)', (t) => {
  t.is(
    htmlToText(
      '<div>Hi&nbsp;<b>Ada</b> &amp; co,<br>line two</div><p><a href="https://x.test/r?a=1&amp;b=2">Reset</a></p><p><a href="https://x.test">https://x.test</a></p><a href="#top">top</a>',
    ),
    'Hi Ada & co,\nline two\n\nReset (https://x.test/r?a=1&b=2)\n\nhttps://x.test\n\ntop',
  )
  t.is(htmlToText('<script>alert(1)</script><table><tr><td>a</td><td>b</td></tr></table>'), 'a b')
})

test('in production, a default mailer that only logs is said once at boot, as a warning', async (t) => {
  const production = await mailApp(
    t,
    {
      'config/app.ts': MAIL_APP_FILES['config/app.ts']!.replace(
        "env: 'test'",
        "env: 'production', key: 'base64:" + Buffer.alloc(32, 7).toString('base64') + "'",
      ),
    },
    { APP_ENV: 'production', APP_URL: 'https://shop.example.com' },
  )
  const log = readFileSync(join(production.root, 'storage/logs/kiln.log'), 'utf8')
  t.regex(log, /"level":40,.*Mail is written to the log \(mailer \\"log\\"\), not sent: set MAIL_MAILER to a real mailer/)
  const quiet = join((await mailApp(t)).root, 'storage/logs/kiln.log')
  t.false(existsSync(quiet) && readFileSync(quiet, 'utf8').includes('Mail is written to the log'), 'not outside production')
})

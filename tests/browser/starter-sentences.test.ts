import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { Mail } from '../../plugins/mail/index.ts'
import { ResetPassword } from '../../app-template/app/mail/reset-password.ts'
import { VerifyEmail } from '../../app-template/app/mail/verify-email.ts'
import { componentsReady, launchChromium, pageErrors } from '../fixtures/browser.ts'
import { starterApp } from '../fixtures/starter-app.ts'

/** The starter says what just happened, as Breeze does: each page below ends its sentence. */

test('the starter in Chromium: home says "Your password has been reset." after a reset, and a verification link says the address is verified, logged in or not', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  app.config.set('app.url', server.url)
  const fake = runWithApp(app, () => Mail.fake())
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)

  await page.goto(`${server.url}/forgot-password`)
  await componentsReady(page)
  await page.fill('[data-test=email]', 'test@example.com')
  await page.click('[data-test=send]')
  await page.waitForSelector('[data-test=sent]')
  await app.service('http').deferred.settled()
  const reset = /Reset password \((https?:\/\/\S+)\)/.exec(fake.sent(ResetPassword)[0]!.rendered!.text)![1]!
  await page.goto(reset)
  await componentsReady(page)
  await page.fill('[data-test=password]', 'new password')
  await page.fill('[data-test=password-confirmation]', 'new password')
  // Logged in and sent home, which says why.
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('[data-test=save]')])
  t.is(await page.textContent('[data-test=status]'), 'Your password has been reset.')
  // Said once: the flash is gone on the next visit.
  await page.reload()
  t.is(await page.$('[data-test=status]'), null)
  t.is(await page.textContent('[data-test=greeting]'), 'Welcome back, Test User.')

  // A new address on /profile: the link mailed to it, opened in this browser, says the address is verified.
  await page.goto(`${server.url}/profile`)
  await componentsReady(page)
  await page.fill('[data-test=email]', 'new@example.com')
  await page.fill('[data-test=email-password]', 'new password')
  await page.click('[data-test=save-details]')
  await page.waitForSelector('[data-test=details-saved]')
  const verify = () => /Verify email address \((https?:\/\/\S+)\)/.exec(fake.sent(VerifyEmail).at(-1)!.rendered!.text)![1]!
  await page.goto(verify())
  t.is(page.url(), `${server.url}/verify-email`)
  t.regex((await page.textContent('[data-test=verified]'))!, /Your email address, new@example\.com, is verified\./)

  // Opened in another browser (not logged in), the link says so on the login page.
  await runWithApp(app, async () =>
    (await app.service('db').kysely()).updateTable('users').set({ email_verified_at: null }).where('email', '=', 'new@example.com').execute(),
  )
  const guest = await (await browser.newContext()).newPage()
  await guest.goto(verify())
  t.is(guest.url(), `${server.url}/login`)
  t.is(await guest.textContent('[data-test=status]'), 'Your email address has been verified. Log in to continue.')
  t.deepEqual(errors, [])
})

test('the starter in Chromium: the nav shows the new name after a profile save; pagination marks the current page and greys out Previous and Next at the ends; /todos logs nothing to the console', async (t) => {
  // As a new app runs under `kiln dev`: debug mode, and broadcasts to the log.
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log', APP_DEBUG: 'true' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)
  const messages: string[] = []
  page.on('console', (message) => messages.push(`${page.url()}: ${message.type()}: ${message.text()}`))

  await page.goto(`${server.url}/login`)
  await page.fill('#email', 'test@example.com')
  await page.fill('#password', 'password')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('main button[type=submit]')])

  await page.goto(`${server.url}/profile`)
  await componentsReady(page)
  t.is(await page.textContent('[data-test=who]'), 'Test User')
  await page.fill('[data-test=name]', 'Ada Lovelace')
  await page.click('[data-test=save-details]')
  await page.waitForSelector('[data-test=details-saved]')
  await page.waitForFunction(() => document.querySelector('[data-test=who]')?.textContent === 'Ada Lovelace')
  t.pass('the nav shows the new name')

  // Seven to-dos: two pages of five.
  const db = await runWithApp(app, () => app.service('db').kysely())
  const { id } = await db.selectFrom('users').select('id').where('email', '=', 'test@example.com').executeTakeFirstOrThrow()
  await db
    .insertInto('todos')
    .values(Array.from({ length: 7 }, (_, i) => ({ user_id: id, title: `To-do ${i + 1}` })))
    .execute()
  messages.length = 0
  await page.goto(`${server.url}/todos`)
  await componentsReady(page)
  const look = (selector: string) =>
    page.$eval(selector, (el) => {
      const style = getComputedStyle(el)
      return {
        tag: el.tagName,
        disabled: (el as HTMLButtonElement).disabled,
        opacity: style.opacity,
        cursor: style.cursor,
        background: style.backgroundColor,
        color: style.color,
      }
    })
  const previous = await look('.pagination > :first-child')
  const next = await look('.pagination > :last-child')
  t.is(previous.tag, 'BUTTON', 'not a link')
  t.true(previous.disabled)
  t.false(next.disabled)
  t.true(Number(previous.opacity) < 1, 'Previous on page 1 looks disabled')
  t.is(previous.cursor, 'not-allowed')
  t.is(next.opacity, '1')
  const current = await look('.pagination [aria-current=page]')
  const other = await look('.pagination button:not([aria-current]):not(:first-child):not(:last-child)')
  t.is(await page.textContent('.pagination [aria-current=page]'), '1')
  t.notDeepEqual([current.background, current.color], [other.background, other.color], 'the current page stands out')

  await page.click('.pagination > :last-child')
  await page.waitForFunction(() => document.querySelector('.pagination [aria-current=page]')?.textContent === '2')
  t.true((await look('.pagination > :last-child')).disabled)
  t.true(Number((await look('.pagination > :last-child')).opacity) < 1, 'Next on the last page looks disabled')
  t.false((await look('.pagination > :first-child')).disabled)
  t.deepEqual(messages, [], 'nothing in the console with BROADCAST_CONNECTION=log')
  t.deepEqual(errors, [])
})

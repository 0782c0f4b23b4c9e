import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { Mail } from '../../plugins/mail/index.ts'
import { ResetPassword } from '../../app-template/app/mail/reset-password.ts'
import { componentsReady, launchChromium, pageErrors } from '../fixtures/browser.ts'
import { starterApp } from '../fixtures/starter-app.ts'

test('password reset in Chromium: "Forgot your password?" on the login page, the mailed link, a new password, logged in; the old password no longer works', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  // Mailed links point at APP_URL: here, this server.
  app.config.set('app.url', server.url)
  const fake = runWithApp(app, () => Mail.fake())
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)

  await page.goto(`${server.url}/login`)
  await Promise.all([page.waitForURL(`${server.url}/forgot-password`), page.click('[data-test=forgot-password]')])
  t.is(await page.title(), 'Forgot your password? · Kiln')
  await componentsReady(page)
  await page.fill('[data-test=email]', 'test@example.com')
  await page.click('[data-test=send]')
  await page.waitForSelector('[data-test=sent]')
  t.regex((await page.textContent('[data-test=sent]'))!, /If an account exists for test@example\.com, a password reset link is on its way\./)

  // The mail goes after the response (deferred): wait for it as a mailbox would.
  await app.service('http').deferred.settled()
  const [mail] = fake.sent(ResetPassword)
  const link = /Reset password \((https?:\/\/\S+)\)/.exec(mail!.rendered!.text)![1]!
  t.true(link.startsWith(`${server.url}/reset-password/`))
  await page.goto(link)
  await componentsReady(page)
  t.is(await page.inputValue('[data-test=email]'), 'test@example.com')
  await page.fill('[data-test=password]', 'new password')
  await page.fill('[data-test=password-confirmation]', 'does not match')
  await page.click('[data-test=save]')
  await page.waitForSelector('[data-test=password-error]')
  t.is(await page.textContent('[data-test=password-error]'), 'The password confirmation does not match.')
  t.is(await page.inputValue('[data-test=password]'), '', 'the password is not kept in the page')

  await page.fill('[data-test=password]', 'new password')
  await page.fill('[data-test=password-confirmation]', 'new password')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('[data-test=save]')])
  t.is(await page.textContent('[data-test=greeting]'), 'Welcome back, Test User.')

  // Logged out, the old password is refused and the new one logs in.
  await page.click('text=Log out')
  await page.goto(`${server.url}/login`)
  await page.fill('#email', 'test@example.com')
  await page.fill('#password', 'password')
  await page.click('button[type=submit]')
  await page.waitForSelector('[data-test=error]')
  await page.fill('#password', 'new password')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type=submit]')])
  t.is(await page.textContent('[data-test=greeting]'), 'Welcome back, Test User.')

  // The link worked once.
  await page.click('text=Log out')
  await page.goto(link)
  await componentsReady(page)
  await page.fill('[data-test=password]', 'third password')
  await page.fill('[data-test=password-confirmation]', 'third password')
  await page.click('[data-test=save]')
  await page.waitForSelector('[data-test=password-error]')
  t.regex((await page.textContent('[data-test=password-error]'))!, /not valid any more/)
  t.deepEqual(errors, [])
})

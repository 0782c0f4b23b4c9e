import test from 'ava'
import { starterApp } from '../fixtures/starter-app.ts'
import { componentsReady, launchChromium, pageErrors } from '../fixtures/browser.ts'

test('the starter in Chromium: a visitor registers through the page (errors shown as they type), is logged in and asked to verify the address, and no console error', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)

  await page.goto(`${server.url}/login`)
  await Promise.all([page.waitForURL(`${server.url}/register`), page.click('main a[href="/register"]')])
  await componentsReady(page)

  // Checked when a field is left.
  await page.fill('[data-test=email]', 'not an email')
  await page.click('[data-test=name]')
  await page.waitForSelector('[data-test=email-error]')
  t.is(await page.textContent('[data-test=email-error]'), 'The email must be a valid email address.')

  // An email that has an account already, and a confirmation that differs.
  await page.fill('[data-test=name]', 'Ada Lovelace')
  await page.fill('[data-test=email]', 'test@example.com')
  await page.fill('[data-test=password]', 'analytical engine')
  await page.fill('[data-test=password-confirmation]', 'analytical engine')
  await page.click('[data-test=register]')
  await page.waitForFunction(() => document.querySelector('[data-test=email-error]')?.textContent === 'The email has already been taken.')
  t.is(await page.inputValue('[data-test=password]'), '', 'the password is not kept in the page')

  await page.fill('[data-test=email]', 'ada@example.com')
  await page.fill('[data-test=password]', 'analytical engine')
  await page.fill('[data-test=password-confirmation]', 'analytical engin')
  await page.click('[data-test=register]')
  await page.waitForFunction(() => document.querySelector('[data-test=password-error]')?.textContent === 'The password confirmation does not match.')

  await page.fill('[data-test=password]', 'analytical engine')
  await page.fill('[data-test=password-confirmation]', 'analytical engine')
  await Promise.all([page.waitForURL(`${server.url}/verify-email`), page.click('[data-test=register]')])
  // Logged in, and asked to open the link mailed to the new address.
  t.is(await page.textContent('[data-test=who]'), 'Ada Lovelace')
  t.regex((await page.textContent('main'))!, /please open the link we just mailed to ada@example\.com/)
  t.deepEqual(errors, [])
})

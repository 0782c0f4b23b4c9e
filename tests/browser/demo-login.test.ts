import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { createTestApp, refreshDatabase, startServer } from '../../core/testing/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { launchChromium } from '../fixtures/browser.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

test('the demo login works in Chromium: a wrong password shows the error, the right one logs in, logout logs out', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  const server = await startServer(app)
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await browser.newPage()

  await page.goto(`${server.url}/`)
  await page.click('text=Log in')
  t.is(new URL(page.url()).pathname, '/login')

  await page.fill('#email', 'test@example.com')
  await page.fill('#password', 'wrong')
  await page.click('button[type=submit]')
  await page.waitForSelector('[data-test=error]')
  t.is(await page.textContent('[data-test=error]'), 'These credentials do not match our records.')
  t.is(await page.inputValue('#email'), 'test@example.com', 'the email is kept')

  await page.fill('#password', 'password')
  await page.click('button[type=submit]')
  await page.waitForSelector('[data-test=greeting]')
  t.is(new URL(page.url()).pathname, '/')
  t.is(await page.textContent('[data-test=greeting]'), 'Welcome back, Test User.')
  t.is(await page.textContent('[data-test=who]'), 'Test User')

  await page.click('text=Log out')
  await page.waitForSelector('text=Log in')
  t.is(await page.locator('[data-test=greeting]').count(), 0)
})

import test from 'ava'
import { starterApp } from '../fixtures/starter-app.ts'
import { launchChromium } from '../fixtures/browser.ts'

test('the starter in Chromium: "Remember me" keeps the user logged in when the session is lost; without it the browser is logged out', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())

  const login = async (remember: boolean) => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.url}/login`)
    await page.fill('input[name=email]', 'test@example.com')
    await page.fill('input[name=password]', 'password')
    if (remember) await page.check('[data-test=remember]')
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('main button[type=submit]')])
    t.is(await page.textContent('[data-test=who]'), 'Test User')
    return { context, page }
  }

  const remembered = await login(true)
  const cookies = await remembered.context.cookies()
  const remember = cookies.find((cookie) => cookie.name === 'remember_web')!
  t.truthy(remember)
  t.true(remember.httpOnly)
  t.true(remember.expires > Date.now() / 1000 + 300 * 86_400, 'it lasts 400 days')
  // The session ends (it expired, or the store was flushed): the browser keeps only its remember cookie.
  await remembered.context.clearCookies({ name: 'kiln_session' })
  await remembered.page.goto(`${server.url}/todos`)
  t.is(remembered.page.url(), `${server.url}/todos`, 'not sent to the login page')
  t.is(await remembered.page.textContent('[data-test=who]'), 'Test User')
  const rotated = (await remembered.context.cookies()).find((cookie) => cookie.name === 'remember_web')!
  t.not(rotated.value, remember.value, 'the cookie was rotated')

  const forgotten = await login(false)
  t.falsy((await forgotten.context.cookies()).find((cookie) => cookie.name === 'remember_web'))
  await forgotten.context.clearCookies({ name: 'kiln_session' })
  await forgotten.page.goto(`${server.url}/todos`)
  t.is(forgotten.page.url(), `${server.url}/login`)

  // Logging out forgets the remembered browser.
  await Promise.all([remembered.page.waitForURL(`${server.url}/`), remembered.page.click('header form button[type=submit]')])
  t.falsy((await remembered.context.cookies()).find((cookie) => cookie.name === 'remember_web'))
})

import test from 'ava'
import { starterApp } from '../fixtures/starter-app.ts'
import { launchChromium } from '../fixtures/browser.ts'

test('the starter in Chromium on a 375 px phone: the nav folds behind a Menu button that opens and closes it; on a desktop the links show and the button does not', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const phone = await (await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })).newPage()
  const errors: string[] = []
  phone.on('pageerror', (error) => errors.push(error.message))

  await phone.goto(`${server.url}/login`)
  await phone.fill('input[name=email]', 'test@example.com')
  await phone.fill('input[name=password]', 'password')
  await Promise.all([phone.waitForURL(`${server.url}/`), phone.click('main button[type=submit]')])
  await phone.waitForFunction(() => (document.querySelector('header') as unknown as { _x_dataStack?: unknown })._x_dataStack)

  t.true(await phone.isVisible('[data-test=menu-button]'))
  t.false(await phone.isVisible('header a[href="/todos"]'), 'the links are folded away')
  t.is(await phone.getAttribute('[data-test=menu-button]', 'aria-expanded'), 'false')
  const header = await phone.$eval('header', (el) => el.getBoundingClientRect().height)
  t.true(header < 80, `the closed header is one line (${header}px)`)
  t.true(await phone.evaluate(() => document.documentElement.scrollWidth <= 375), 'nothing wider than the screen')

  await phone.click('[data-test=menu-button]')
  await phone.waitForSelector('header a[href="/todos"]', { state: 'visible' })
  t.is(await phone.getAttribute('[data-test=menu-button]', 'aria-expanded'), 'true')
  t.true(await phone.isVisible('[data-test=who]'))
  t.true(await phone.isVisible('header form button[type=submit]'), 'Log out too')
  await Promise.all([phone.waitForURL(`${server.url}/todos`), phone.click('header a[href="/todos"]')])
  await phone.waitForSelector('[data-test=empty]')
  t.false(await phone.isVisible('header a[href="/tokens"]'), 'a new page starts with the menu closed')
  await phone.click('[data-test=menu-button]')
  await phone.waitForSelector('header a[href="/tokens"]', { state: 'visible' })
  await phone.keyboard.press('Escape')
  await phone.waitForSelector('header a[href="/tokens"]', { state: 'hidden' })

  const desktop = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  await desktop.goto(`${server.url}/`)
  t.false(await desktop.isVisible('[data-test=menu-button]'))
  t.true(await desktop.isVisible('header a[href="/counter"]'))
  t.true(await desktop.isVisible('header a[href="/login"]'))
  t.deepEqual(errors, [])
})

test('the starter in Chromium: the login button stands below the password field, on a phone and on a desktop', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  for (const viewport of [
    { width: 375, height: 740 },
    { width: 1280, height: 800 },
  ]) {
    const page = await (await browser.newContext({ viewport })).newPage()
    await page.goto(`${server.url}/login`)
    const password = (await page.locator('#password').boundingBox())!
    const button = (await page.locator('main button[type=submit]').boundingBox())!
    t.true(button.y >= password.y + password.height, `${viewport.width}px: the button is below the field`)
    t.true(Math.abs(button.x - password.x) < 2, `${viewport.width}px: and aligned with it`)
  }
})

test('the starter in Chromium: a missing page is a 404 in the layout whose link goes home', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => message.type() === 'error' && !/status of 404/.test(message.text()) && errors.push(message.text()))
  const response = await page.goto(`${server.url}/no/such/page`)
  t.is(response!.status(), 404)
  t.is(await page.textContent('h1'), 'Page not found')
  t.true(await page.isVisible('header .brand'), 'in the app layout, with its nav')
  t.is(await page.evaluate(() => getComputedStyle(document.body).margin), '0px', 'and its stylesheet')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('[data-test=home-link]')])
  t.regex((await page.textContent('main'))!, /Kiln is running/)
  t.deepEqual(errors, [], "the layout's scripts run on an error page too")
})

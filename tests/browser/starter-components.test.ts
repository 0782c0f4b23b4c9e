import test from 'ava'
import type { Page } from 'playwright-core'
import { starterApp } from '../fixtures/starter-app.ts'
import { componentsReady, launchChromium, pageErrors } from '../fixtures/browser.ts'

const text = (page: Page, selector: string) => page.$$eval(selector, (items) => items.map((item) => item.textContent?.trim()))

test('the starter in Chromium: counter, to-dos and tokens work, and no page logs a console error', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)
  const ready = () => componentsReady(page)

  await page.goto(`${server.url}/counter`)
  await ready()
  await page.click('[data-test=increment]')
  await page.click('[data-test=increment]')
  await page.waitForFunction(() => document.querySelector('[data-test=count]')?.textContent === '2')
  await page.click('[data-test=decrement]')
  await page.waitForFunction(() => document.querySelector('[data-test=count]')?.textContent === '1')

  await page.goto(`${server.url}/login`)
  await page.fill('input[name=email]', 'test@example.com')
  await page.fill('input[name=password]', 'password')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type=submit]')])

  // To-dos, reached through the nav's wire:navigate link, which wire:current marks.
  await page.click('header a[href="/todos"]')
  await page.waitForSelector('[data-test=empty]')
  await ready()
  await page.waitForSelector('header a.current[href="/todos"]')
  t.deepEqual(await page.$$eval('header a.current', (links) => links.map((link) => link.getAttribute('href'))), ['/todos'])
  await page.fill('[data-test=title]', 'ab')
  await page.click('[data-test=add]')
  await page.waitForFunction(() => document.querySelector('[data-test=title-error]')?.textContent === 'A to-do needs at least 3 characters.')
  t.is(await page.getAttribute('[data-test=title]', 'aria-invalid'), 'true')
  // The form object's error block goes away with the error (a valid title is checked as it is sent, then added).
  await page.fill('[data-test=title]', 'Buy milk')
  await page.click('[data-test=add]')
  await page.waitForSelector('[data-test=title-error]', { state: 'detached' })
  t.is(await page.getAttribute('[data-test=title]', 'aria-invalid'), null)
  t.is(await page.inputValue('[data-test=title]'), '', 'the form is reset')
  page.once('dialog', (dialog) => void dialog.accept())
  await page.click('[data-test=remove]')
  await page.waitForSelector('[data-test=empty]')
  for (const title of ['Water the plants', 'Call Ada', 'Fix the bike', 'Read the docs', 'Bake bread', 'Write tests']) {
    await page.fill('[data-test=title]', title)
    await page.click('[data-test=add]')
    await page.waitForFunction((expected) => document.querySelector('[data-test=todo] span')?.textContent === expected, title)
  }
  // The to-do pushed to page 2 leaves in a view transition (wire:transition), a frame after the answer.
  await page.waitForFunction(() => document.querySelectorAll('[data-test=todo]').length === 5)
  t.deepEqual(await text(page, '[data-test=todo] span'), ['Write tests', 'Bake bread', 'Read the docs', 'Fix the bike', 'Call Ada'])
  await page.click('.pagination button:has-text("2")')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=todo]').length === 1)
  t.regex(page.url(), /page=2/)
  await page.click('.pagination button:has-text("1")')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=todo]').length === 5)
  await page.click('[data-test=todo] input[type=checkbox]')
  await page.waitForSelector('[data-test=todo] span.done')
  await page.selectOption('[data-test=filter]', 'done')
  await page.waitForFunction(() => document.querySelectorAll('[data-test=todo]').length === 1)
  page.once('dialog', (dialog) => void dialog.accept())
  await page.click('[data-test=remove]')
  await page.waitForSelector('[data-test=empty]')

  // Tokens: create one with abilities, use it on the API, revoke it.
  await page.goto(`${server.url}/tokens`)
  await ready()
  await page.fill('[data-test=name]', 'laptop')
  await page.check('[data-test="ability-orders:write"]')
  await page.click('[data-test=create]')
  await page.waitForSelector('[data-test=plain-token]')
  const token = (await page.textContent('[data-test=plain-token]'))!
  t.deepEqual(await text(page, '[data-test=token] td:nth-child(2) code'), ['orders:read', 'orders:write'])
  const me = await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
  t.is(me.status, 200)
  page.once('dialog', (dialog) => void dialog.accept())
  await page.click('[data-test=revoke]')
  await page.waitForSelector('[data-test=no-tokens]')
  t.is((await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })).status, 401)

  for (const path of ['/', '/counter', '/todos', '/tokens', '/live']) {
    await page.goto(`${server.url}${path}`)
    await ready()
  }
  t.deepEqual(errors, [])
})

import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { Page } from 'playwright-core'
import { runWithApp } from '../../core/index.ts'
import { createTestApp, refreshDatabase } from '../../core/testing/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { launchChromium } from '../fixtures/browser.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

const frames = (page: Page) => page.evaluate(() => (window as unknown as { __frames: string[] }).__frames)
const titles = (page: Page) => page.$$eval('[data-test=todo] span', (items) => items.map((item) => item.textContent))

test("the starter's to-do list follows the user's other tab through the user's private channel, and not its own broadcasts", async (t) => {
  const app = await createTestApp({ root, env: { BROADCAST_CONNECTION: 'rt' } })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  // Two tabs of one browser: the same user, the same session.
  const context = await browser.newContext()
  await context.addInitScript(() => {
    const sent: string[] = ((window as unknown as { __frames: string[] }).__frames = [])
    const send = WebSocket.prototype.send
    WebSocket.prototype.send = function (data) {
      sent.push(String(data))
      return send.call(this, data)
    }
  })
  const first = await context.newPage()
  await first.goto(`${server.url}/login`)
  await first.fill('input[name=email]', 'test@example.com')
  await first.fill('input[name=password]', 'password')
  await Promise.all([first.waitForURL(`${server.url}/`), first.click('button[type=submit]')])
  const second = await context.newPage()
  const requests: string[] = []
  for (const page of [first, second]) {
    await page.goto(`${server.url}/todos`)
    await page.waitForFunction(() => (window as unknown as { __frames: string[] }).__frames.some((f) => f.includes('private-app.models.User.')))
  }
  // The $event calls the first tab makes: one per broadcast it hears.
  first.on('request', (request) => request.method() === 'POST' && requests.push(request.postData() ?? ''))
  const heard = () => requests.join('\n').split('"$event"').length - 1

  await second.fill('[data-test=title]', 'Buy milk')
  await second.click('[data-test=add]')
  await first.waitForFunction(() => [...document.querySelectorAll('[data-test=todo] span')].some((span) => span.textContent === 'Buy milk'))
  t.deepEqual(await titles(first), ['Buy milk'])
  t.is(heard(), 1, 'the first tab heard the broadcast and asked for its new page')
  t.true((await frames(first)).some((f) => f.includes('"subscribe"') && f.includes('private-app.models.User.1')))

  // The first tab ticks it off: the second follows. The first does not hear its own change: its requests name its
  // socket, and the broadcast leaves that socket out (toOthers).
  await first.click('[data-test=todo] input[type=checkbox]')
  await second.waitForFunction(() => document.querySelector('[data-test=todo] span')?.classList.contains('done') === true)
  // A later change from the second tab reaches the first after anything sent before it on the same socket.
  await second.fill('[data-test=title]', 'Call Ada')
  await second.click('[data-test=add]')
  await first.waitForFunction(() => [...document.querySelectorAll('[data-test=todo] span')].some((span) => span.textContent === 'Call Ada'))
  t.is(heard(), 2, 'two broadcasts from the other tab heard, none of its own')
  t.deepEqual((await titles(first)).sort(), ['Buy milk', 'Call Ada'])
})

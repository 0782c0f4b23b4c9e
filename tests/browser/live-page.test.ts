import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { Page } from 'playwright-core'
import { runWithApp, type Application } from '../../core/index.ts'
import { createTestApp, refreshDatabase } from '../../core/testing/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { User } from '../../app-template/app/models/user.ts'
import { launchChromium } from '../fixtures/browser.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))
// fs sessions and a fixed key: the sessions must survive the server restart below.
const env = { BROADCAST_CONNECTION: 'rt', SESSION_DRIVER: 'fs', APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}` }

async function login(page: Page, base: string, email: string) {
  await page.goto(`${base}/login`)
  await page.fill('input[name=email]', email)
  await page.fill('input[name=password]', 'password')
  await Promise.all([page.waitForURL(`${base}/`), page.click('button[type=submit]')])
  await page.goto(`${base}/live`)
  await page.waitForFunction(() => document.getElementById('state')?.textContent === 'connected')
}

const text = (page: Page, selector: string) => page.$$eval(selector, (items) => items.map((item) => item.textContent))

/**
 * The starter app on a fresh in-memory database with two users (ids 1 and 2, the same after a restart). `passwords`
 * (from {@link passwordHashes} before a restart) gives them back the stored hashes they had: a new salt would be a
 * changed password, which ends every session by design.
 */
async function bootApp(passwords?: Array<{ email: string; password: string }>): Promise<Application> {
  const app = await createTestApp({ root, env })
  await refreshDatabase(app)
  await runWithApp(app, async () => {
    await seed()
    const grace = new User()
    grace.fill({ name: 'Grace', email: 'grace@example.com' })
    await grace.setPassword('password')
    await grace.save()
  })
  const db = await app.service('db').kysely()
  for (const { email, password } of passwords ?? []) await db.updateTable('users').set({ password }).where('email', '=', email).execute()
  return app
}

/** The users' stored password hashes, to boot the same users again. */
async function passwordHashes(app: Application): Promise<Array<{ email: string; password: string }>> {
  return (await app.service('db').kysely()).selectFrom('users').select(['email', 'password']).execute()
}

const rejoined = () => (window as unknown as { live: { rt: { join(name: string): { subscribed: boolean } } } }).live.rt.join('chat').subscribed

test('live page in Chromium: presence across two users, toOthers() messages, and a server restart', async (t) => {
  let app = await bootApp()
  const server = await app.listen({ port: 0 })
  const base = server.url
  t.teardown(() => app.close())
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const ada = await (await browser.newContext()).newPage()
  const grace = await (await browser.newContext()).newPage()

  await login(ada, base, 'test@example.com')
  await login(grace, base, 'grace@example.com')
  await ada.waitForFunction(() => document.querySelectorAll('#members li').length === 2)
  t.is((await text(ada, '#members li')).length, 2)
  await grace.waitForFunction(() => document.querySelectorAll('#members li').length === 2)

  await grace.fill('#body', 'hello from Grace')
  await grace.click('#send button')
  await ada.waitForFunction(() => document.querySelectorAll('#messages li').length === 1)
  t.deepEqual(await text(ada, '#messages li'), ['Grace: hello from Grace'])
  t.deepEqual(await text(grace, '#messages li'), ['Grace: hello from Grace'], 'shown once on the sender page')
  t.is(await grace.evaluate(() => (window as unknown as { live: { received: number } }).live.received), 0, 'toOthers() skipped the sender socket')

  // Restart the server on the same port: both pages reconnect, re-join, and messages flow again.
  const port = server.port
  const passwords = await passwordHashes(app)
  await app.close()
  await ada.waitForFunction(() => document.getElementById('state')?.textContent === 'connecting')
  app = await bootApp(passwords)
  await app.listen({ port })
  await ada.waitForFunction(() => document.getElementById('state')?.textContent === 'connected', undefined, { timeout: 20_000 })
  await grace.waitForFunction(() => document.getElementById('state')?.textContent === 'connected', undefined, { timeout: 20_000 })
  await ada.waitForFunction(rejoined, undefined, { timeout: 10_000 })
  await grace.waitForFunction(rejoined, undefined, { timeout: 10_000 })
  t.is((await text(ada, '#members li')).length, 2)
  await ada.fill('#body', 'still here')
  await ada.click('#send button')
  await ada.waitForFunction(
    () => (document.getElementById('body') as HTMLInputElement | null)?.value === '' || document.getElementById('error')?.textContent !== '',
  )
  t.is(await ada.textContent('#error'), '', 'the post after the restart is accepted')
  await grace.waitForFunction(() => document.querySelectorAll('#messages li').length === 2)
  t.deepEqual(await text(grace, '#messages li'), ['Grace: hello from Grace', 'Test User: still here'])

  await grace.close()
  await ada.waitForFunction(() => document.querySelectorAll('#members li').length === 1)
  t.pass()
})

test('under APP_BASE_PATH=/sub the starter layout tells new Rt() the prefix: the live page connects and joins', async (t) => {
  const app = await createTestApp({ root, env: { ...env, APP_BASE_PATH: '/sub' } })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  await login(page, `${server.url}/sub`, 'test@example.com')
  t.is(await page.getAttribute('meta[name="app-base-path"]', 'content'), '/sub')
  await page.waitForFunction(() => document.querySelectorAll('#members li').length === 1)
  t.deepEqual(await text(page, '#members li'), ['Test User'])
})

import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { createTestApp, refreshDatabase, startServer } from '../../core/testing/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { launchChromium } from '../fixtures/browser.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

const spaPage = `<!doctype html><meta charset="utf-8"><title>SPA</title><body><script>
const xsrf = () => decodeURIComponent((document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]+)/) || [])[1] || '')
const call = (method, path, body, withHeader = true) => fetch(path, {
  method, credentials: 'include',
  headers: { accept: 'application/json', 'content-type': 'application/json', ...(withHeader ? { 'X-XSRF-TOKEN': xsrf() } : {}) },
  body: body ? JSON.stringify(body) : undefined,
}).then(async (r) => ({ status: r.status, body: await r.text() }))
window.flow = async () => {
  const steps = {}
  steps.cookie = (await call('GET', '/tok/csrf-cookie')).status
  steps.login = (await call('POST', '/login', { email: 'test@example.com', password: 'password' })).status
  const me = await call('GET', '/user')
  steps.user = [me.status, JSON.parse(me.body).email]
  steps.withoutHeader = (await call('POST', '/tok/token', { email: 'test@example.com', password: 'password', device_name: 'x' }, false)).status
  return steps
}
</script>`

test('the SPA flow in Chromium: csrf-cookie, login, /user with cookies, and 419 without the header', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  await runWithApp(app, () => seed())
  app.router.get('/spa', () => spaPage)
  const server = await startServer(app)
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await browser.newPage()
  await page.goto(`${server.url}/spa`)
  const steps = await page.evaluate(() => (window as unknown as { flow(): Promise<Record<string, unknown>> }).flow())
  t.deepEqual(steps, { cookie: 204, login: 200, user: [200, 'test@example.com'], withoutHeader: 419 })
})

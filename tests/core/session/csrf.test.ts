import test from 'ava'
import { createApp, generateAppKey, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { Browser } from '../../fixtures/session-browser.ts'

async function makeApp(t: { teardown(fn: () => unknown): void }): Promise<Application> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { session: { driver: 'memory', csrf_except: ['webhooks/*'] } } })
  t.teardown(() => app.close())
  app.router.group({ middleware: ['web'] }, () => {
    app.router.get('/form', ({ session }) => ({ token: session!.token() }))
    app.router.post('/submit', ({ request }) => ({ got: request.input('name') }))
    app.router.post('/webhooks/stripe', () => ({ ok: true }))
  })
  return app
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
})

test('a GET sets a JS-readable XSRF-TOKEN cookie; echoing it in X-XSRF-TOKEN passes', async (t) => {
  const browser = new Browser(await makeApp(t))
  const page = await browser.request('/form')
  const xsrfLine = page.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='))!
  t.notRegex(xsrfLine, /HttpOnly/i)
  const token = (await page.json()).token
  t.is(browser.xsrf(), token)
  const ok = await browser.request('/submit', json({ name: 'kiln' }, { 'x-xsrf-token': browser.xsrf() }))
  t.is(ok.status, 200)
  t.deepEqual(await ok.json(), { got: 'kiln' })
})

test('the token is also accepted from X-CSRF-TOKEN and the _token form field', async (t) => {
  const browser = new Browser(await makeApp(t))
  const { token } = await (await browser.request('/form')).json()
  t.is((await browser.request('/submit', json({ name: 'a' }, { 'x-csrf-token': token }))).status, 200)
  const form = await browser.request('/submit', {
    method: 'POST',
    body: `name=b&_token=${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.deepEqual(await form.json(), { got: 'b' })
})

test('missing, wrong, or another session\'s token: 419 {"message":"CSRF token mismatch."}', async (t) => {
  const app = await makeApp(t)
  const browser = new Browser(app)
  const other = new Browser(app)
  await browser.request('/form')
  await other.request('/form')
  const attempts: Array<Record<string, string>> = [{}, { 'x-xsrf-token': 'nope' }, { 'x-xsrf-token': other.xsrf() }, { 'x-xsrf-token': '' }]
  for (const headers of attempts) {
    const res = await browser.request('/submit', json({ name: 'x' }, headers))
    t.is(res.status, 419)
    t.deepEqual(await res.json(), { message: 'CSRF token mismatch.' })
  }
  const fresh = await new Browser(app).request('/submit', json({ name: 'x' }))
  t.is(fresh.status, 419, 'a first request with no session at all is refused too')
})

test('excepted paths skip the check', async (t) => {
  const browser = new Browser(await makeApp(t))
  t.is((await browser.request('/webhooks/stripe', json({}))).status, 200)
})

test('after APP_KEY is rotated (the old key in APP_PREVIOUS_KEYS), a visitor keeps its session and the token of the page already on screen passes; the next page has a new token', async (t) => {
  const root = tempApp()
  const oldKey = generateAppKey()
  const boot = async (env: Record<string, string>) => {
    const app = await createApp({ root, env: { APP_ENV: 'test', ...env }, config: { session: { driver: 'fs' } } })
    t.teardown(() => app.close())
    app.router.group({ middleware: ['web'] }, () => {
      app.router.get('/form', ({ session }) => ({ id: session!.id, token: session!.token() }))
      app.router.post('/submit', () => ({ ok: true }))
    })
    return app
  }
  const before = await boot({ APP_KEY: oldKey })
  const browser = new Browser(before)
  const onScreen = await (await browser.request('/form')).json()
  await before.close()

  const after = await boot({ APP_KEY: generateAppKey(), APP_PREVIOUS_KEYS: oldKey })
  const rotated = new Browser(after)
  for (const [name, value] of browser.cookies) rotated.cookies.set(name, value)
  t.is((await rotated.request('/submit', json({}, { 'x-csrf-token': onScreen.token }))).status, 200, 'the old page posts')
  const next = await (await rotated.request('/form')).json()
  t.is(next.id, onScreen.id, 'the same session')
  t.not(next.token, onScreen.token, 'a token under the new key')
  t.is(rotated.xsrf(), next.token, 'and the XSRF-TOKEN cookie follows it')
  t.is((await rotated.request('/submit', json({}, { 'x-csrf-token': next.token }))).status, 200)

  const stranger = new Browser(after)
  await stranger.request('/form')
  t.is(
    (await stranger.request('/submit', json({}, { 'x-csrf-token': onScreen.token }))).status,
    419,
    "another session's token under the old key is still refused",
  )
})

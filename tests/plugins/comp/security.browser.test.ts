import test from 'ava'
import { browserApp, textIs, type BrowserApp } from './browser-app.ts'
import { files } from './browser-components.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp({
    ...files,
    'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/c/{name}', ({ params }) => view('one', { name: params.name, title: params.name }))
  Route.post('/relogin', async ({ session }) => { await session!.regenerate(); session!.regenerateToken(); return { ok: true } })
})
`,
  })
})
test.after.always(() => env?.close())

test('after a login in another tab, the next action reloads the page with a short notice instead of failing silently', async (t) => {
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  await page.click('#inc')
  await textIs(page, '#count', '1')
  // Another tab of the same browser logs in: the session gets a new id and token.
  const status = await page.evaluate(async () => {
    const token = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '')
    return (await fetch('/relogin', { method: 'POST', headers: { 'x-xsrf-token': token, accept: 'application/json' } })).status
  })
  t.is(status, 200)
  const reloaded = page.waitForEvent('load')
  await page.click('#inc')
  await reloaded
  await page.waitForSelector('#comp-reloaded')
  t.regex((await page.textContent('#comp-reloaded')) ?? '', /out of date/)
  // The reloaded page works in the new session.
  await page.waitForFunction(() => [...document.querySelectorAll('[wire\\:id]')].every((el) => (el as unknown as { _x_dataStack?: unknown })._x_dataStack))
  await page.click('#inc')
  await textIs(page, '#count', '1')
})

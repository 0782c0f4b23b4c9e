import test from 'ava'
import { definePlugin } from '../../../core/index.ts'
import { browserApp, textIs } from './browser-app.ts'
import { files } from './browser-components.ts'

test('offline CDN: the reactive library falls back to the copy Kiln serves', async (t) => {
  // The default CDN address: this machine has no network, so the browser cannot fetch it.
  const env = await browserApp(files, { config: { comp: { reactive_cdn: undefined } } })
  t.teardown(() => env.close())
  const { page, open } = await env.newPage(t)
  const loaded: string[] = []
  page.on('requestfinished', (request) => loaded.push(new URL(request.url()).pathname))
  await open('/c/counter')
  t.true(loaded.includes('/comp/alpine.js'), JSON.stringify(loaded))
  await page.click('#inc')
  await textIs(page, '#count', '1')
})

test('APP_BASE_PATH: the client uses the prefix from the metas, or from its own address when they are missing', async (t) => {
  const env = await browserApp(files, { env: { APP_BASE_PATH: '/sub' } })
  t.teardown(() => env.close())
  const { page, open } = await env.newPage(t)
  await open('/c/counter')
  t.is(await page.evaluate(() => (window as unknown as { __COMP__: { base: string } }).__COMP__.base), '/sub')
  await page.click('#inc')
  await textIs(page, '#count', '1')
  const requests: string[] = []
  page.on('request', (request) => requests.push(new URL(request.url()).pathname))
  await page.click('#inc')
  await textIs(page, '#count', '2')
  t.true(
    requests.every((path) => path.startsWith('/sub/')),
    JSON.stringify(requests),
  )
  // A page without the boot configuration: the client finds the base from where it was loaded.
  const html = await (await page.request.get(`${env.url}/c/counter`)).text()
  const stripped = html.replace(/<meta name="comp-(endpoint|base)"[^>]*>/g, '').replace(/<script>window\.__COMP__[^<]*<\/script>/, '')
  await page.route(`${env.url}/c/stripped`, (route) => route.fulfill({ body: stripped, contentType: 'text/html' }))
  await page.goto(`${env.url}/c/stripped`)
  await page.waitForFunction(() => (window as unknown as { __COMP__?: { base: string } }).__COMP__?.base === '/sub')
  t.is(await page.evaluate(() => (window as unknown as { __COMP__: { endpoint: string } }).__COMP__.endpoint), '/sub/comp/update')
})

test('csp_safe: the page works under a strict Content-Security-Policy with the CSP build of Alpine', async (t) => {
  const strictCsp = definePlugin({
    name: 'strict-csp',
    boot(app) {
      app.middleware.prependToGroup('global', async (_ctx, next) => {
        const response = await next()
        response.headers.set('content-security-policy', "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'")
        return response
      })
    },
  })
  const env = await browserApp(files, { config: { comp: { csp_safe: true } }, plugins: [strictCsp] })
  t.teardown(() => env.close())
  const { page, open, errors } = await env.newPage(t)
  const response = await page.request.get(`${env.url}/c/counter`)
  t.regex(response.headers()['content-security-policy'] ?? '', /script-src 'self'/)
  await open('/c/counter')
  await page.click('#inc')
  await textIs(page, '#count', '1')
  t.is(await page.textContent('#live'), '1')
  t.deepEqual(
    errors.filter((line) => /Content Security Policy|EvalError/.test(line)),
    [],
  )
})

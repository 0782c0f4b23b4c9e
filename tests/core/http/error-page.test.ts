import test from 'ava'
import { createApp, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const routes = `import { defineRoutes } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/orders/{id}', () => {
    const ovenTemperature = 12 // kiln-source-marker
    throw new Error('The oven is cold: ' + ovenTemperature + '<b>')
  }).name('orders.show')
})
`

async function makeApp(t: import('ava').ExecutionContext, debug: boolean, files: Record<string, string> = {}): Promise<Application> {
  const app = await createApp({ root: tempApp({ 'routes/web.ts': routes, ...files }), env: { APP_ENV: 'test', APP_DEBUG: String(debug) } })
  t.teardown(() => app.close())
  return app
}

const browser = {
  accept: 'text/html,application/xhtml+xml',
  cookie: 'kiln_session=s3ss10n-value; theme=dark-value',
  authorization: 'Bearer 7|t0ken-value',
  'x-csrf-token': 'csrf-value',
  'user-agent': 'kiln-test-agent',
}

/** Nothing secret from the request headers reaches the page. */
function assertRedacted(t: import('ava').ExecutionContext, html: string): void {
  for (const secret of ['s3ss10n-value', 'dark-value', 't0ken-value', 'csrf-value']) t.false(html.includes(secret), secret)
}

test('APP_DEBUG=true: a browser gets the debug page with the error, source lines, the request and the route', async (t) => {
  const app = await makeApp(t, true)
  const res = await app.request('/orders/42?tab=items', { headers: browser })
  t.is(res.status, 500)
  t.regex(res.headers.get('content-type')!, /^text\/html/)
  const html = await res.text()
  t.regex(html, /The oven is cold: 12&lt;b&gt;/, 'the message, escaped')
  t.false(html.includes('12<b>'))
  t.regex(html, /kiln-source-marker/, 'the source line of the frame that threw')
  t.regex(html, /routes\/web\.ts/)
  t.regex(html, /\/orders\/42\?tab=items/, 'the URL')
  t.regex(html, /kiln-test-agent/, 'headers')
  t.regex(html, /kiln_session/, 'cookie names stay')
  t.regex(html, /\[redacted\]/)
  t.regex(html, /orders\.show/, 'the route name')
  assertRedacted(t, html)
})

test('APP_DEBUG=true: a JSON client gets message, exception and stack', async (t) => {
  const app = await makeApp(t, true)
  const res = await app.request('/orders/42', { headers: { accept: 'application/json' } })
  t.is(res.status, 500)
  const body = (await res.json()) as { message: string; exception: string; stack: string[] }
  t.deepEqual(Object.keys(body).sort(), ['exception', 'message', 'stack'])
  t.is(body.message, 'The oven is cold: 12<b>')
  t.is(body.exception, 'Error')
  t.true(
    body.stack.some((frame) => /^at .*routes\/web\.ts:5:\d+/.test(frame)),
    body.stack.join('\n'),
  )
})

test('APP_DEBUG=false: no message, no stack, neither in JSON nor in HTML', async (t) => {
  const app = await makeApp(t, false)
  const json = await app.request('/orders/42', { headers: { accept: 'application/json' } })
  t.is(json.status, 500)
  t.deepEqual(await json.json(), { message: 'Server error.' })
  const page = await app.request('/orders/42', { headers: browser })
  t.is(page.status, 500)
  const html = await page.text()
  t.regex(html, /500 · Server error\./)
  for (const leak of ['oven', 'routes/web.ts', 'kiln-source-marker', 'at ', 'kiln-test-agent']) t.false(html.includes(leak), leak)
})

test('APP_DEBUG=true: errors below 500 keep their small page', async (t) => {
  const app = await makeApp(t, true)
  const res = await app.request('/nowhere', { headers: browser })
  t.is(res.status, 404)
  const html = await res.text()
  t.regex(html, /404 · Not found\./)
  t.false(html.includes('youch'))
})

test('the debug page over a real server, and without debug the plain page', async (t) => {
  for (const debug of [true, false]) {
    const app = await makeApp(t, debug)
    const server = await app.listen({ port: 0 })
    t.teardown(() => server.close())
    const res = await fetch(`${server.url}/orders/7`, { headers: browser })
    t.is(res.status, 500)
    const html = await res.text()
    t.is(html.includes('kiln-source-marker'), debug)
    t.is(html.includes('The oven is cold'), debug)
    assertRedacted(t, html)
  }
})

test('the debug page uses the nonce of a Content-Security-Policy the app set for the response', async (t) => {
  const app = await makeApp(t, true, {
    'config/app.ts': `import { defineConfig, definePlugin } from 'kiln-framework'
const csp = definePlugin({ name: 'csp', boot(app) {
  app.middleware.alias('csp', (ctx, next) => {
    ctx.response.headers.set('content-security-policy', "default-src 'self'; script-src 'nonce-n0nc3'; style-src 'nonce-n0nc3'")
    return next()
  })
  app.middleware.appendToGroup('global', 'csp')
} })
export default defineConfig({ plugins: [csp] })
`,
  })
  const res = await app.request('/orders/1', { headers: browser })
  t.is(res.status, 500)
  // The same policy, with the framing directive the `web` group adds (http.frame_options).
  t.is(res.headers.get('content-security-policy'), "default-src 'self'; script-src 'nonce-n0nc3'; style-src 'nonce-n0nc3'; frame-ancestors 'self'")
  const html = await res.text()
  const tags = html.match(/<(script|style)\b[^>]*>/g) ?? []
  t.true(tags.length > 0)
  for (const tag of tags) t.regex(tag, /nonce="n0nc3"/, tag)
})

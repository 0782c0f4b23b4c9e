import test from 'ava'
import WebSocket from 'ws'
import { createApp, HttpException, ValidationException, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class PostController {
  show({ params }: { params: Record<string, string> }) {
    return { controller: true, id: params.post }
  }
}

async function makeApp(env: Record<string, string> = {}): Promise<Application> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test', ...env } })
  const Route = app.router
  Route.get('/', () => '<h1>home</h1>')
  Route.get('/json', () => ({ ok: true }))
  Route.get('/posts/{post}', [PostController, 'show']).name('posts.show')
  Route.get('/opt/{page?}', ({ params }) => ({ page: params.page ?? 'none' })).name('opt')
  Route.post('/echo', ({ request }) => ({ body: request.body(), q: request.query() }))
  Route.get('/boom', () => {
    throw new Error('secret internals')
  })
  Route.get('/forbidden', () => {
    throw new HttpException(403, 'Nope.')
  })
  Route.post('/validate', () => {
    throw new ValidationException({ email: ['The email field is required.'] })
  })
  Route.group({ prefix: '/admin', as: 'admin.' }, () => {
    Route.get('/dash', () => 'dash').name('dash')
  })
  Route.websocket('/echo-ws', {
    message(peer, message) {
      peer.send(`echo:${message.text()}`)
    },
  })
  return app
}

test('routes: strings are HTML, objects are JSON, controllers resolve', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  const home = await app.request('/')
  t.is(home.status, 200)
  t.regex(home.headers.get('content-type')!, /text\/html/)
  t.is(await home.text(), '<h1>home</h1>')
  t.deepEqual(await (await app.request('/json')).json(), { ok: true })
  t.deepEqual(await (await app.request('/posts/42')).json(), { controller: true, id: '42' })
  t.deepEqual(await (await app.request('/opt/3')).json(), { page: '3' })
  t.deepEqual(await (await app.request('/opt')).json(), { page: 'none' })
  t.is(await (await app.request('/admin/dash')).text(), 'dash')
})

test('named routes generate URLs, extra params become the query string', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  t.is(app.urls.route('posts.show', { post: 7, tab: 'x' }), '/posts/7?tab=x')
  t.is(app.urls.route('admin.dash'), '/admin/dash')
  t.is(app.urls.route('opt'), '/opt')
  t.throws(() => app.urls.route('posts.show'), { message: /needs the parameter "post"/ })
})

test('404 and 405 are JSON for JSON clients and HTML for navigations', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  const missing = await app.request('/nope', { headers: { accept: 'application/json' } })
  t.is(missing.status, 404)
  t.deepEqual(await missing.json(), { message: 'Not found.' })
  const page = await app.request('/nope', { headers: { accept: 'text/html' } })
  t.is(page.status, 404)
  t.regex(await page.text(), /<h1>404/)
  const wrong = await app.request('/json', { method: 'DELETE', headers: { accept: 'application/json' } })
  t.is(wrong.status, 405)
  t.regex(wrong.headers.get('allow')!, /GET/)
  t.deepEqual(await wrong.json(), { message: 'Method not allowed.' })
})

test('errors: 403, 422 with errors, and a 500 that hides its message unless debugging', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  const json = { accept: 'application/json' }
  const forbidden = await app.request('/forbidden', { headers: json })
  t.is(forbidden.status, 403)
  t.deepEqual(await forbidden.json(), { message: 'Nope.' })
  const invalid = await app.request('/validate', { method: 'POST', headers: json })
  t.is(invalid.status, 422)
  t.deepEqual(await invalid.json(), { message: 'The email field is required.', errors: { email: ['The email field is required.'] } })
  const boom = await app.request('/boom', { headers: json })
  t.is(boom.status, 500)
  const body = await boom.json()
  t.deepEqual(body, { message: 'Server error.' })

  const debugApp = await makeApp({ APP_DEBUG: 'true' })
  t.teardown(() => debugApp.close())
  debugApp.config.set('app.debug', true)
  const debugBoom = await (await debugApp.request('/boom', { headers: json })).json()
  t.is(debugBoom.exception, 'Error')
  t.true(Array.isArray(debugBoom.stack))
})

test('bodies: JSON, urlencoded arrays, malformed JSON, polluting keys and oversize', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  const post = (body: string, type: string) => app.request('/echo?x=1', { method: 'POST', body, headers: { 'content-type': type, accept: 'application/json' } })
  t.deepEqual(await (await post('{"a":[1,2]}', 'application/json')).json(), { body: { a: [1, 2] }, q: { x: '1' } })
  t.deepEqual(await (await post('t[]=a&t[]=b&n=1', 'application/x-www-form-urlencoded')).json(), { body: { t: ['a', 'b'], n: '1' }, q: { x: '1' } })
  const bad = await post('{"a":', 'application/json')
  t.is(bad.status, 400)
  t.deepEqual(await bad.json(), { message: 'The request body is not valid JSON.' })
  const proto = await post('{"__proto__":{"admin":true}}', 'application/json')
  t.is(proto.status, 400)
  t.regex((await proto.json()).message, /__proto__/)
  const formProto = await post('constructor=1', 'application/x-www-form-urlencoded')
  t.is(formProto.status, 400)
  const big = await post(JSON.stringify({ a: 'x'.repeat(1_100_000) }), 'application/json')
  t.is(big.status, 413)
  const form = new FormData()
  form.set('name', 'kiln')
  form.set('file', new Blob(['hello']), 'a.txt')
  const multipart = await app.request('/echo', { method: 'POST', body: form, headers: { accept: 'application/json' } })
  t.deepEqual((await multipart.json()).body, { name: 'kiln' })
})

test('APP_BASE_PATH: prefixed requests are served and generated URLs carry the prefix', async (t) => {
  const app = await makeApp({ APP_BASE_PATH: '/sub' })
  t.teardown(() => app.close())
  app.config.set('app.base_path', '/sub')
  t.deepEqual(await (await app.request('/sub/json')).json(), { ok: true })
  t.deepEqual(await (await app.request('/json')).json(), { ok: true })
  t.is(app.urls.route('posts.show', { post: 1 }), '/sub/posts/1')
})

test('a real listening server serves HTTP and websocket routes', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  const server = await app.listen()
  const res = await fetch(`${server.url}/json`)
  t.deepEqual(await res.json(), { ok: true })
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/echo-ws`)
  const reply = await new Promise<string>((resolve, reject) => {
    ws.on('open', () => ws.send('hi'))
    ws.on('message', (data) => resolve(String(data)))
    ws.on('error', reject)
  })
  t.is(reply, 'echo:hi')
  ws.close()
  const refused = new WebSocket(`${server.url.replace('http', 'ws')}/nope`)
  const outcome = await new Promise<string>((resolve) => {
    refused.on('open', () => resolve('open'))
    refused.on('error', () => resolve('refused'))
  })
  t.is(outcome, 'refused')
})

test('throttle:max,minutes answers 429 with Retry-After once the limit is used up, per client', async (t) => {
  const app = await makeApp()
  t.teardown(() => app.close())
  app.router.post('/limited', () => ({ ok: true })).middleware(['throttle:3,1'])
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) statuses.push((await app.request('/limited', { method: 'POST', headers: { accept: 'application/json' } })).status)
  t.deepEqual(statuses, [200, 200, 200, 429])
  const limited = await app.request('/limited', { method: 'POST', headers: { accept: 'application/json' } })
  t.deepEqual(await limited.json(), { message: 'Too many requests.' })
  t.true(Number(limited.headers.get('retry-after')) > 0)
})

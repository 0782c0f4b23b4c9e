import test from 'ava'
import { compApp, page, snapshots, update, counterFiles } from './comp-fixtures.ts'

const pageFiles = {
  ...counterFiles,
  'routes/web.ts': `import { defineRoutes, view } from 'kiln-framework'
import Counter from '../app/components/counter.ts'
export default defineRoutes((Route) => {
  Route.get('/', () => view('home', { title: 'Home' }))
  Route.comp('/counter', Counter)
  Route.comp('/counter/{start}', 'counter', { title: 'Counter page' })
  Route.get('/bare', () => view('bare'))
})
`,
  'resources/views/bare.hbs': "<html><head><title>Bare</title></head><body>@comp('counter')</body></html>",
}

test('Route.comp serves a full-page component in the layout; route parameters reach mount() and same-named properties', async (t) => {
  const { client } = await compApp(t, pageFiles)
  const res = await client.get('/counter', { accept: 'text/html' })
  const html = await res.text()
  t.regex(html, /^<!doctype html><html><head><title><\/title><meta name="comp-endpoint"/)
  t.regex(html, /<body><div wire:id="\w+" wire:name="counter" wire:snapshot="[^"]+" class="counter"><span>0<\/span>/)
  const withParam = await (await client.get('/counter/7', { accept: 'text/html' })).text()
  t.regex(withParam, /<title>Counter page<\/title>/)
  t.deepEqual(snapshots(withParam)[0]!.serverMemo.data, { count: 0, step: 1 }, 'the route parameter is text, so mount() left count alone')
})

test('inject_assets: a page that rendered components but has no @compScripts gets them before </head>; turned off, it does not', async (t) => {
  const { client } = await compApp(t, pageFiles)
  const html = await (await client.get('/bare', { accept: 'text/html' })).text()
  t.regex(html, /<title>Bare<\/title><meta name="comp-endpoint" content="[^"]+">\n<meta name="comp-base" content="">[\s\S]*<\/script>\n<\/head>/)
  t.is(html.match(/comp-endpoint/g)!.length, 1)
  const off = await compApp(t, pageFiles, { comp: { inject_assets: false } })
  t.false((await (await off.client.get('/bare', { accept: 'text/html' })).text()).includes('comp-endpoint'))
  const once = await (await client.get('/', { accept: 'text/html' })).text()
  t.is(once.match(/comp-endpoint/g)!.length, 1, 'a layout with @compScripts gets them once')
})

test('APP_BASE_PATH: every browser URL carries the prefix and the signature still verifies', async (t) => {
  const { client } = await compApp(t, pageFiles, {}, { APP_BASE_PATH: '/sub' })
  const { html, snapshot, endpoint } = await page(client, '/sub/')
  t.regex(html, /<meta name="comp-base" content="\/sub">/)
  t.true(endpoint.startsWith('/sub/comp/update?'))
  t.regex(html, /"asset":"\/sub\/comp\/comp\.js\?v=/)
  t.regex(html, /data-fallback="\/sub\/comp\/alpine\.js\?v=/)
  const res = await update(client, endpoint, snapshot, { calls: [{ method: 'increment' }] })
  t.is(res.status, 200)
  t.true((await res.json()).effects.endpoint.startsWith('/sub/comp/update?'))
})

test('GET /comp/comp.js: the built client, immutable when its content hash is asked for, revalidated otherwise; Kiln serves Alpine too', async (t) => {
  const { app, client } = await compApp(t, pageFiles)
  const hashed = await app.assets.versionedUrl('/comp/comp.js')
  const res = await client.get(hashed)
  t.is(res.status, 200)
  t.regex(res.header('content-type')!, /javascript/)
  t.is(res.header('cache-control'), 'public, max-age=31536000, immutable')
  t.true((await res.text()).length > 100)
  t.is((await client.get('/comp/comp.js')).header('cache-control'), 'public, max-age=0, must-revalidate')
  t.is((await client.get('/comp/comp.js', { 'if-none-match': res.header('etag')! })).status, 304)
  for (const path of ['/comp/alpine.js', '/comp/alpine-csp.js']) {
    const alpine = await client.get(path)
    t.is(alpine.status, 200, path)
    t.regex(await alpine.text(), /Alpine/)
  }
})

test('csp_safe: no inline script, the config as JSON, and the CSP build of Alpine', async (t) => {
  const { client } = await compApp(t, pageFiles, { comp: { csp_safe: true, reactive_cdn: null } })
  const html = await (await client.get('/', { accept: 'text/html' })).text()
  t.false(html.includes('window.__COMP__'))
  t.regex(html, /<script type="application\/json" id="comp-config">\{"base":""/)
  t.regex(html, /<script src="\/comp\/alpine-csp\.js\?v=[\w-]+" defer data-comp-reactive><\/script>/)
})

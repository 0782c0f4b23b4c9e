import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

async function assetApp(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const root = tempApp({
    'public/robots.txt': 'User-agent: *\n',
    'public/css/app.css': 'body { color: red }\n',
    'public/build/app.3f9a1c2b7d.js': 'console.log(1)\n',
    'dist/bundle.js': 'window.bundle = 1\n',
    'vendor/lib/a.js': 'a()\n',
    'secret.txt': 'do not serve\n',
  })
  const app = await createApp({ root, env: { APP_ENV: 'test', ...env } })
  t.teardown(() => app.close())
  app.assets.file('/bundle.js', 'dist/bundle.js')
  app.assets.directory('/vendor', join(root, 'vendor/lib'))
  app.router.get('/hello', () => 'hi')
  return { app, root }
}

test('a mounted file: content type, strong ETag, Last-Modified; If-None-Match gives 304; HEAD has headers and no body', async (t) => {
  const { app } = await assetApp(t)
  const res = await app.request('/bundle.js')
  t.is(res.status, 200)
  t.is(await res.text(), 'window.bundle = 1\n')
  t.regex(res.headers.get('content-type')!, /javascript/)
  const etag = res.headers.get('etag')!
  t.regex(etag, /^"[A-Za-z0-9_-]{16}"$/)
  t.truthy(res.headers.get('last-modified'))
  t.is(res.headers.get('cache-control'), 'public, max-age=0, must-revalidate')

  const again = await app.request('/bundle.js', { headers: { 'if-none-match': etag } })
  t.is(again.status, 304)
  t.is(await again.text(), '')

  const head = await app.request('/bundle.js', { method: 'HEAD' })
  t.is(head.status, 200)
  t.is(head.headers.get('etag'), etag)
  t.is(head.headers.get('content-length'), '18')
  t.is(await head.text(), '')
})

test('a versioned URL carries the content hash and is cached as immutable; a stale hash is not', async (t) => {
  const { app, root } = await assetApp(t, { APP_BASE_PATH: '/sub' })
  const url = await app.assets.versionedUrl('/bundle.js')
  t.regex(url, /^\/sub\/bundle\.js\?v=[A-Za-z0-9_-]{16}$/)
  t.is(app.assets.url('/bundle.js'), url)
  const res = await app.request(url)
  t.is(res.status, 200)
  t.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable')

  // The file changes: a new hash, and the old URL is no longer immutable.
  writeFileSync(join(root, 'dist/bundle.js'), 'window.bundle = 2\n')
  utimesSync(join(root, 'dist/bundle.js'), new Date(), new Date(Date.now() + 5000))
  const next = await app.assets.versionedUrl('/bundle.js')
  t.not(next, url)
  const stale = await app.request(url)
  t.is(await stale.text(), 'window.bundle = 2\n')
  t.is(stale.headers.get('cache-control'), 'public, max-age=0, must-revalidate')
})

test('a mounted folder serves its files and nothing outside it, encoded or not', async (t) => {
  const { app } = await assetApp(t)
  t.is(await (await app.request('/vendor/a.js')).text(), 'a()\n')
  for (const path of [
    '/vendor/../secret.txt',
    '/vendor/%2e%2e/secret.txt',
    '/vendor/..%2fsecret.txt',
    '/vendor/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/vendor/nope.js',
    '/vendor/a.js%00',
  ]) {
    const res = await app.request(path, { headers: { accept: 'application/json' } })
    t.is(res.status, 404, path)
    t.truthy((await res.json()).message)
  }
})

test('public/: served for GETs no route answers, hashed names immutable, routes win, other methods and missing files 404/405 as before', async (t) => {
  const { app, root } = await assetApp(t)
  const robots = await app.request('/robots.txt')
  t.is(robots.status, 200)
  t.is(await robots.text(), 'User-agent: *\n')
  t.regex(robots.headers.get('content-type')!, /text\/plain/)
  t.regex((await app.request('/css/app.css')).headers.get('content-type')!, /text\/css/)
  t.is((await app.request('/build/app.3f9a1c2b7d.js')).headers.get('cache-control'), 'public, max-age=31536000, immutable')
  mkdirSync(join(root, 'public/hello'), { recursive: true })
  writeFileSync(join(root, 'public/hello/index.html'), 'shadow')
  t.is(await (await app.request('/hello')).text(), 'hi')
  t.is((await app.request('/missing.txt', { headers: { accept: 'application/json' } })).status, 404)
  t.is((await app.request('/robots.txt', { method: 'POST', headers: { accept: 'application/json' } })).status, 404)
  t.is((await app.request('/hello', { method: 'POST', headers: { accept: 'application/json' } })).status, 405)
  t.is((await app.request('/../secret.txt')).status, 404)
  t.is((await app.request('/%2e%2e/secret.txt')).status, 404)
})

test('http.public_dir false turns public/ off', async (t) => {
  const root = tempApp({ 'public/robots.txt': 'x' })
  const app = await createApp({ root, env: { APP_ENV: 'test' }, config: { http: { public_dir: false } } })
  t.teardown(() => app.close())
  t.is((await app.request('/robots.txt')).status, 404)
})

test('over a real server: a browser-style conditional GET is a 304', async (t) => {
  const { app } = await assetApp(t)
  const server = await app.listen({ port: 0 })
  const first = await fetch(`${server.url}/vendor/a.js`)
  await first.text()
  const second = await fetch(`${server.url}/vendor/a.js`, { headers: { 'if-none-match': first.headers.get('etag')! } })
  t.is(second.status, 304)
})

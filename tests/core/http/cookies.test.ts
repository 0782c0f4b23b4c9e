import test from 'ava'
import { createApp } from 'kiln-framework'
import { tempApp } from '../../fixtures/temp-app.ts'

async function cookieApp() {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  app.router.get('/read', ({ cookies }) => ({
    a: cookies.raw('a') ?? null,
    b: cookies.raw('b') ?? null,
    c: cookies.raw('c') ?? null,
    d: cookies.raw('d') ?? null,
    e: cookies.raw('e') ?? null,
    proto: cookies.raw('__proto__') ?? null,
    constructor: cookies.raw('constructor') ?? null,
  }))
  app.router.get('/write', ({ cookies }) => {
    cookies.set('theme', 'dark mode', { maxAge: 3600.7, httpOnly: true, sameSite: 'lax', encrypt: false })
    cookies.set('embed', '1', { sameSite: 'none', encrypt: false })
    cookies.delete('old')
    return { ok: true }
  })
  return app
}

test('request cookies: first value wins, malformed pairs are skipped, values are percent-decoded when they decode, quotes are dropped, object keys are plain names', async (t) => {
  const app = await cookieApp()
  t.teardown(() => app.close())
  const res = await app.request('/read', {
    headers: { cookie: 'a=1; a=2; junk; =x; b=%E0%A4%A; c="quoted"; d=caf%C3%A9;  e = spaced ; __proto__=p; constructor=c' },
  })
  t.deepEqual(await res.json(), { a: '1', b: '%E0%A4%A', c: 'quoted', d: 'café', e: 'spaced', proto: 'p', constructor: 'c' })
  const none = await app.request('/read')
  t.deepEqual(await none.json(), { a: null, b: null, c: null, d: null, e: null, proto: null, constructor: null })
})

test('response cookies: encoded value, whole seconds, Path=/ by default, SameSite=None always Secure, deletion expires at once', async (t) => {
  const app = await cookieApp()
  t.teardown(() => app.close())
  const res = await app.request('/write')
  const byName = new Map(res.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), new Set(line.split('; '))]))
  t.deepEqual(byName.get('theme'), new Set(['theme=dark%20mode', 'Max-Age=3600', 'Path=/', 'HttpOnly', 'SameSite=Lax']))
  t.deepEqual(byName.get('embed'), new Set(['embed=1', 'Path=/', 'Secure', 'SameSite=None']))
  t.deepEqual(byName.get('old'), new Set(['old=', 'Max-Age=0', 'Path=/', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT']))
})

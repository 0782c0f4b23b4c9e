import test, { type ExecutionContext } from 'ava'
import { createApp, sessionStore, type Application } from '../../core/index.ts'
import { barrier, Browser, cookieHeader } from '../fixtures/session-browser.ts'
import { tempApp } from '../fixtures/temp-app.ts'

interface Gate {
  /** Resolves once a request is held at the gate (it has loaded its session). */
  entered: Promise<void>
  enter(): void
  wait: Promise<void>
  open(): void
}

/** A promise a test releases by hand, so a request can be held in flight. */
function gate(app: Application): Gate {
  const holder = app as unknown as { gate?: Gate }
  if (!holder.gate) {
    let open!: () => void
    let enter!: () => void
    holder.gate = {
      entered: new Promise<void>((resolve) => (enter = resolve)),
      enter: () => enter(),
      wait: new Promise<void>((resolve) => (open = resolve)),
      open: () => open(),
    }
  }
  return holder.gate
}

/**
 * The contract every session store passes, in the manner of unstorage's `testDriver`: the encrypted cookie, tampered
 * cookies, flash data, regenerate and invalidate, parallel requests on one session, logins and logouts racing
 * requests in flight, and storing nothing for a visitor until the session holds data. `config` is merged into the
 * app's `session` config beside `driver`.
 *
 * @example
 * ```ts
 * testSessionStore('redis', { stores: { redis: { driver: 'redis', url, prefix } } })
 * ```
 */
export function testSessionStore(driver: string, config: Record<string, unknown> = {}): void {
  async function makeApp(t: ExecutionContext): Promise<Application> {
    const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { session: { driver, ...config } } })
    t.teardown(() => app.close())
    const Route = app.router
    Route.group({ middleware: ['web'] }, () => {
      Route.get('/count', ({ session }) => {
        const count = session!.get<number>('count', 0) + 1
        session!.put('count', count)
        return { count, id: session!.id.length }
      })
      Route.post('/flash', ({ session, request }) => {
        session!.flash('status', request.input('status'))
        return { ok: true }
      })
      Route.get('/read', ({ session }) => ({ status: session!.get('status', null) }))
      Route.post('/regenerate', async ({ session }) => {
        await session!.regenerate()
        return { ok: true }
      })
      Route.post('/invalidate', async ({ session }) => {
        await session!.invalidate()
        return { count: session!.get('count', 0) }
      })
      Route.post('/keys/{key}', ({ session, params }) => {
        session!.put(`key-${params.key}`, true)
        return { ok: true }
      })
      const meet = barrier(20)
      Route.post('/together/{key}', async ({ session, params }) => {
        session!.put(`key-${params.key}`, true)
        await meet()
        return { ok: true }
      })
      Route.get('/keys', ({ session }) => ({
        keys: Object.keys(session!.all())
          .filter((k) => k.startsWith('key-'))
          .sort(),
      }))
      Route.post('/login', async ({ session }) => {
        await session!.regenerate()
        session!.put('user', 1)
        return { ok: true }
      })
      Route.get('/me', ({ session }) => ({ user: session!.get('user', null) }))
      // The id is shown here only so that the tests can look for its record.
      Route.get('/id', ({ session }) => ({ id: session!.id, token: session!.token() }))
      Route.post('/rotate', ({ session }) => ({ token: session!.regenerateToken() }))
      Route.post('/noop', () => ({ ok: true }))
      Route.get('/slow', async ({ session, request }) => {
        if (request.query().write !== 'no') session!.put('seen-by-slow', true)
        gate(app).enter()
        await gate(app).wait
        return { user: session!.get('user', null) }
      })
    })
    return app
  }

  test(`${driver}: data survives across requests through the encrypted cookie`, async (t) => {
    const browser = new Browser(await makeApp(t))
    t.deepEqual(await (await browser.request('/count')).json(), { count: 1, id: 40 })
    t.deepEqual(await (await browser.request('/count')).json(), { count: 2, id: 40 })
    const sealed = browser.cookies.get('kiln_session')!
    t.false(/^[A-Za-z0-9]{40}$/.test(sealed), 'the cookie does not carry the raw id')
    const stranger = new Browser((browser as unknown as { app: Application }).app)
    t.deepEqual(await (await stranger.request('/count')).json(), { count: 1, id: 40 })
  })

  test(`${driver}: a tampered or forged session cookie starts a fresh session`, async (t) => {
    const browser = new Browser(await makeApp(t))
    await browser.request('/count')
    await browser.request('/count')
    const sealed = browser.cookies.get('kiln_session')!
    browser.cookies.set('kiln_session', sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA'))
    t.is((await (await browser.request('/count')).json()).count, 1)
    browser.cookies.set('kiln_session', 'a'.repeat(40))
    t.is((await (await browser.request('/count')).json()).count, 1)
  })

  test(`${driver}: flash data lives for exactly one more request`, async (t) => {
    const browser = new Browser(await makeApp(t))
    await browser.request('/count')
    const res = await browser.request('/flash', {
      method: 'POST',
      body: JSON.stringify({ status: 'Saved.' }),
      headers: { 'content-type': 'application/json', 'x-xsrf-token': browser.xsrf() },
    })
    t.is(res.status, 200)
    t.deepEqual(await (await browser.request('/read')).json(), { status: 'Saved.' })
    t.deepEqual(await (await browser.request('/read')).json(), { status: null })
  })

  test(`${driver}: regenerate keeps the data under a new id; the old id is dead; invalidate clears`, async (t) => {
    const browser = new Browser(await makeApp(t))
    await browser.request('/count')
    await browser.request('/count')
    const before = browser.cookies.get('kiln_session')!
    await browser.request('/regenerate', { method: 'POST', headers: { 'x-xsrf-token': browser.xsrf() } })
    const after = browser.cookies.get('kiln_session')!
    t.not(after, before)
    t.is((await (await browser.request('/count')).json()).count, 3)
    const replay = new Browser((browser as unknown as { app: Application }).app)
    replay.cookies.set('kiln_session', before)
    t.is((await (await replay.request('/count')).json()).count, 1, 'the pre-regeneration id no longer loads the session')
    const cleared = await browser.request('/invalidate', { method: 'POST', headers: { 'x-xsrf-token': browser.xsrf() } })
    t.deepEqual(await cleared.json(), { count: 0 })
    t.is((await (await browser.request('/count')).json()).count, 1)
  })

  test(`${driver}: 40 parallel requests on one session each keep their own key; none is refused for CSRF`, async (t) => {
    const app = await makeApp(t)
    const server = await app.listen({ port: 0 })
    const browser = new Browser(app)
    await browser.request('/count')
    const cookie = cookieHeader(browser)
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${server.url}/keys/${String(i).padStart(2, '0')}`, {
          method: 'POST',
          headers: { cookie, accept: 'application/json', 'x-xsrf-token': browser.xsrf() },
        }).then((res) => res.status),
      ),
    )
    t.deepEqual(statuses, Array(40).fill(200))
    const { keys } = await (await browser.request('/keys')).json()
    t.deepEqual(
      keys,
      Array.from({ length: 40 }, (_, i) => `key-${String(i).padStart(2, '0')}`),
    )
    t.is((await (await browser.request('/count')).json()).count, 2, 'the counter written before survived the parallel writes')
  })

  test(`${driver}: 20 requests that all load the session before any saves it keep every key`, async (t) => {
    const app = await makeApp(t)
    const browser = new Browser(app)
    await browser.request('/count')
    const cookie = cookieHeader(browser)
    const keys = Array.from({ length: 20 }, (_, i) => String(i).padStart(2, '0'))
    const statuses = await Promise.all(
      keys.map((key) =>
        app
          .request(`/together/${key}`, { method: 'POST', headers: { cookie, accept: 'application/json', 'x-xsrf-token': browser.xsrf() } })
          .then((res) => res.status),
      ),
    )
    t.deepEqual(statuses, Array(20).fill(200))
    t.deepEqual(
      (await (await browser.request('/keys')).json()).keys,
      keys.map((key) => `key-${key}`),
    )
    t.is((await (await browser.request('/count')).json()).count, 2)
  })

  for (const writes of [true, false])
    test(`${driver}: a request still in flight when the user logs in cannot undo the login when its answer comes last (it ${writes ? 'writes' : 'only reads'})`, async (t) => {
      const app = await makeApp(t)
      const browser = new Browser(app)
      await browser.request('/count')
      // A component request on the guest session is held while the login happens in the same browser.
      const inFlight = browser.request(writes ? '/slow' : '/slow?write=no')
      await gate(app).entered
      t.is((await browser.request('/login', { method: 'POST', headers: { 'x-xsrf-token': browser.xsrf() } })).status, 200)
      gate(app).open()
      t.is((await inFlight).status, 200)

      // Its cookies (the guest id, the guest CSRF token) must not have replaced the new ones.
      t.deepEqual(await (await browser.request('/me')).json(), { user: 1 })
      const post = await browser.request('/keys/after', { method: 'POST', headers: { 'x-xsrf-token': browser.xsrf() } })
      t.is(post.status, 200, "the CSRF token the browser holds is the session's")
    })

  test(`${driver}: after a logout, a copy of the old cookie is refused, even by a request that was already in flight`, async (t) => {
    const app = await makeApp(t)
    const browser = new Browser(app)
    await browser.request('/count')
    await browser.request('/login', { method: 'POST', headers: { 'x-xsrf-token': browser.xsrf() } })
    const copy = new Map(browser.cookies)
    t.deepEqual(await (await browser.request('/me')).json(), { user: 1 })

    // A request on the logged-in session is in flight while the user logs out in another tab.
    const slow = new Browser(app)
    for (const [k, v] of copy) slow.cookies.set(k, v)
    const inFlight = slow.request('/slow')
    await gate(app).entered
    const logout = await browser.request('/invalidate', { method: 'POST', headers: { 'x-xsrf-token': browser.xsrf() } })
    t.is(logout.status, 200)
    gate(app).open()
    t.deepEqual(await (await inFlight).json(), { user: 1 }, 'the request that started before the logout finishes')

    // Its save must not have brought the old session back: the copied cookie is logged out.
    const replay = new Browser(app)
    for (const [k, v] of copy) replay.cookies.set(k, v)
    t.deepEqual(await (await replay.request('/me')).json(), { user: null })
    t.deepEqual(await (await browser.request('/me')).json(), { user: null })
  })

  const stored = (app: Application, id: string) => sessionStore(app).hasItem(id)
  const post = (browser: Browser, path: string, token: string) => browser.request(path, { method: 'POST', headers: { 'x-xsrf-token': token } })

  test(`${driver}: requests without a session cookie to a web route, each a new visitor given a CSRF token, store nothing, nor do their next requests`, async (t) => {
    const app = await makeApp(t)
    const visitors = Array.from({ length: 20 }, () => new Browser(app))
    const ids = new Set<string>()
    for (const visitor of visitors) {
      const { id, token } = await (await visitor.request('/id')).json()
      ids.add(id)
      t.is((await post(visitor, '/noop', token)).status, 200, 'its token passes the CSRF check')
      t.is((await (await visitor.request('/id')).json()).id, id, 'the next request is on the same session')
    }
    t.is(ids.size, visitors.length, 'each visitor has a session of its own')
    for (const id of ids) t.false(await stored(app, id), 'no record for a session that holds nothing')
  })

  test(`${driver}: a visitor whose session holds only its CSRF token keeps one session id across requests, and nothing is stored until the session holds data`, async (t) => {
    const app = await makeApp(t)
    const browser = new Browser(app)
    const first = await (await browser.request('/id')).json()
    t.is(browser.xsrf(), first.token, 'the XSRF-TOKEN cookie carries the token')
    const second = await (await browser.request('/id')).json()
    t.deepEqual(second, first, 'the second request, carrying the cookie of the first, has the same id and token')
    t.false(await stored(app, first.id), 'a session with nothing but its token is not stored')

    t.is((await post(browser, '/keys/a', browser.xsrf())).status, 200, 'the token passes the CSRF check')
    t.true(await stored(app, first.id), 'the first real data stores the session, under the same id')
    t.deepEqual(await (await browser.request('/id')).json(), first)
    t.deepEqual((await (await browser.request('/keys')).json()).keys, ['key-a'])
    t.is((await post(browser, '/keys/b', 'x'.repeat(40))).status, 419)
  })

  test(`${driver}: on a session that holds only its token, regenerateToken, login and logout each give a new token, and login and logout a new id`, async (t) => {
    const app = await makeApp(t)
    const browser = new Browser(app)
    const guest = await (await browser.request('/id')).json()
    const rotated = (await (await post(browser, '/rotate', guest.token)).json()).token
    t.not(rotated, guest.token)
    t.is(browser.xsrf(), rotated)
    t.is((await post(browser, '/keys/a', guest.token)).status, 419, 'the token before regenerateToken is refused')
    t.is((await post(browser, '/keys/a', rotated)).status, 200)

    const other = new Browser(app)
    const before = await (await other.request('/id')).json()
    t.is((await post(other, '/login', before.token)).status, 200)
    const loggedIn = await (await other.request('/id')).json()
    t.not(loggedIn.id, before.id, 'login gives a new id')
    t.not(loggedIn.token, before.token, 'and a new token')
    t.is((await post(other, '/keys/a', before.token)).status, 419)
    t.is((await post(other, '/invalidate', loggedIn.token)).status, 200)
    const loggedOut = await (await other.request('/id')).json()
    t.not(loggedOut.id, loggedIn.id, 'logout gives a new id')
    t.not(loggedOut.token, loggedIn.token, 'and a new token')
    t.is((await post(other, '/keys/a', loggedIn.token)).status, 419)
    t.is((await post(other, '/keys/a', loggedOut.token)).status, 200)
  })

  test(`${driver}: a copy of the cookie of a session that held only its token is refused after the login`, async (t) => {
    const app = await makeApp(t)
    const browser = new Browser(app)
    const guest = await (await browser.request('/id')).json()
    const copy = new Map(browser.cookies)
    // A request on the guest session is in flight while the user logs in.
    const inFlight = browser.request('/slow?write=no')
    await gate(app).entered
    t.is((await post(browser, '/login', guest.token)).status, 200)
    gate(app).open()
    t.is((await inFlight).status, 200)
    t.deepEqual(await (await browser.request('/me')).json(), { user: 1 }, 'the late answer did not put the guest cookie back')
    t.is((await post(browser, '/keys/a', browser.xsrf())).status, 200)

    const replay = new Browser(app)
    for (const [k, v] of copy) replay.cookies.set(k, v)
    const replayed = await (await replay.request('/id')).json()
    t.not(replayed.id, guest.id, 'the guest id does not load again')
  })
}

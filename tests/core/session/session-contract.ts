import type { ExecutionContext, TestFn } from 'ava'
import { createApp, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** A cookie jar as a browser keeps one, for requests through `app.request()`. */
export class Browser {
  readonly cookies = new Map<string, string>()
  constructor(private readonly app: Application) {}

  async request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await this.app.request(path, { ...init, headers: { accept: 'application/json', ...(cookie ? { cookie } : {}), ...init.headers } })
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }

  xsrf(): string {
    return decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? '')
  }
}

/**
 * The session contract every store must pass: one suite, run once per
 * driver (memory, fs, redis).
 */
export function sessionSuite(test: TestFn, driver: string, extraConfig: Record<string, unknown> = {}): void {
  async function makeApp(t: ExecutionContext): Promise<Application> {
    const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { session: { driver, ...extraConfig } } })
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
    const res = await browser.request('/flash', { method: 'POST', body: JSON.stringify({ status: 'Saved.' }), headers: { 'content-type': 'application/json', 'x-xsrf-token': browser.xsrf() } })
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
}

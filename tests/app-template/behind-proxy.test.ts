/**
 * The starter behind a reverse proxy, over real sockets: a proxy written
 * here (node:http, appending X-Forwarded-For as nginx does) in front of a
 * listening starter, with clients on loopback addresses of their own
 * (127.0.0.2, 127.0.0.3), the proxy connecting from 127.0.0.1.
 */
import test from 'ava'
import { forwardingProxy, LoopbackClient, type ForwardingProxyOptions } from '../fixtures/forwarding-proxy.ts'
import { starterApp } from '../fixtures/starter-app.ts'

type Context = { teardown(fn: () => unknown): void }

/** The starter listening, with TRUSTED_PROXIES as given, and the proxy in front of it. */
async function behindProxy(t: Context, trustedProxies: string, proxy: ForwardingProxyOptions = {}) {
  const app = await starterApp(t, 'sqlite', { TRUSTED_PROXIES: trustedProxies })
  const server = await app.listen({ port: 0 })
  const front = await forwardingProxy(server.url, proxy)
  t.teardown(() => front.close())
  return { app, server, proxy: front }
}

/** Five wrong passwords for one email from one client; the throttle (`credentials`: 5 a minute per email and address) lets exactly those through. */
async function exhaust(client: LoopbackClient, email: string, headers: Record<string, string> = {}): Promise<number[]> {
  await client.request('GET', '/')
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await client.request('POST', '/login', { json: { email, password: 'wrong' }, headers })).status)
  return statuses
}

const LOCKED_OUT = [422, 422, 422, 422, 422, 429]

test('behind a trusted proxy (TRUSTED_PROXIES) two clients get separate login throttles: one locked out does not lock out the other', async (t) => {
  const { proxy } = await behindProxy(t, '127.0.0.1')
  const alice = new LoopbackClient(proxy.url, '127.0.0.2')
  const bob = new LoopbackClient(proxy.url, '127.0.0.3')
  t.deepEqual(await exhaust(alice, 'test@example.com'), LOCKED_OUT)
  const fromBob = await bob.request('GET', '/').then(() => bob.request('POST', '/login', { json: { email: 'test@example.com', password: 'password' } }))
  t.is(fromBob.status, 200, 'the other client logs in: its address is its own')
  t.is((await alice.request('POST', '/login', { json: { email: 'test@example.com', password: 'password' } })).status, 429, 'the first is still held')
})

test('behind a proxy that is not trusted every client shares its address: a forged X-Forwarded-For through it is ignored', async (t) => {
  const { proxy } = await behindProxy(t, '')
  const alice = new LoopbackClient(proxy.url, '127.0.0.2')
  const bob = new LoopbackClient(proxy.url, '127.0.0.3')
  // Each attempt claims another address: none of them is believed, so the five attempts count together.
  let n = 0
  await alice.request('GET', '/')
  const statuses: number[] = []
  for (let i = 0; i < 6; i++)
    statuses.push(
      (await alice.request('POST', '/login', { json: { email: 'test@example.com', password: 'wrong' }, headers: { 'x-forwarded-for': `198.51.100.${++n}` } }))
        .status,
    )
  t.deepEqual(statuses, LOCKED_OUT)
  await bob.request('GET', '/')
  t.is((await bob.request('POST', '/login', { json: { email: 'test@example.com', password: 'password' } })).status, 429, 'the proxy’s address is shared')
})

test('behind a trusted proxy a client cannot choose its address: what it writes in X-Forwarded-For stays left of what the proxy adds', async (t) => {
  const { proxy } = await behindProxy(t, '127.0.0.1')
  const alice = new LoopbackClient(proxy.url, '127.0.0.2')
  const statuses: number[] = []
  await alice.request('GET', '/')
  for (let i = 0; i < 6; i++)
    statuses.push(
      (await alice.request('POST', '/login', { json: { email: 'test@example.com', password: 'wrong' }, headers: { 'x-forwarded-for': `198.51.100.${i}` } }))
        .status,
    )
  t.deepEqual(statuses, LOCKED_OUT, 'every attempt counted against 127.0.0.2')
})

test('a client that reaches the app directly cannot change its address with X-Forwarded-For, even with a proxy trusted', async (t) => {
  const { server } = await behindProxy(t, '127.0.0.1')
  const mallory = new LoopbackClient(server.url, '127.0.0.2')
  const statuses: number[] = []
  await mallory.request('GET', '/')
  for (let i = 0; i < 6; i++)
    statuses.push(
      (
        await mallory.request('POST', '/login', {
          json: { email: 'test@example.com', password: 'wrong' },
          headers: { 'x-forwarded-for': `198.51.100.${i}`, forwarded: `for=198.51.100.${i}` },
        })
      ).status,
    )
  t.deepEqual(statuses, LOCKED_OUT)
})

test('behind a trusted proxy that terminates TLS, the session, XSRF-TOKEN and remember-me cookies are Secure; behind an untrusted one they are not', async (t) => {
  const secureCookies = async (trusted: string) => {
    const { proxy } = await behindProxy(t, trusted, { proto: 'https' })
    const client = new LoopbackClient(proxy.url, '127.0.0.2')
    const first = await client.request('GET', '/')
    const login = await client.request('POST', '/login', { json: { email: 'test@example.com', password: 'password', remember: true } })
    t.is(login.status, 200)
    const lines = [...(first.headers['set-cookie'] ?? []), ...(login.headers['set-cookie'] ?? [])]
    const names = (secure: boolean) => [...new Set(lines.filter((line) => /;\s*secure/i.test(line) === secure).map((line) => line.split('=')[0]))].sort()
    return { secure: names(true), plain: names(false) }
  }
  const trusted = await secureCookies('127.0.0.1')
  t.deepEqual(trusted.plain, [])
  t.true(trusted.secure.includes('kiln_session') && trusted.secure.includes('XSRF-TOKEN'), trusted.secure.join())
  t.true(
    trusted.secure.some((name) => name!.startsWith('remember')),
    trusted.secure.join(),
  )
  const untrusted = await secureCookies('')
  t.deepEqual(untrusted.secure, [])
})

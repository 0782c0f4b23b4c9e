/**
 * `http.trusted_proxies` over real sockets: a proxy written here (node:http)
 * in front of a listening app, clients on loopback addresses of their own
 * (127.0.0.2, 127.0.0.3), the proxy connecting from 127.0.0.1.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { createApp, type Application } from '../../../core/index.ts'
import { forwardingProxy, LoopbackClient, type ForwardingProxyOptions } from '../../fixtures/forwarding-proxy.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

type Context = { teardown(fn: () => unknown): void }

interface Seen {
  ip: string
  ips: string[]
  scheme: string
  secure: boolean
  host: string
  origin: string
  absolute: string
}

/** An app with `/who` (what the request says of its client), a signed route and a web route, listening; a proxy in front. */
async function proxiedApp(
  t: Context,
  trusted: string[] | string,
  proxy: ForwardingProxyOptions = {},
  { config = {}, appUrl = 'https://app.example' }: { config?: Record<string, unknown>; appUrl?: string } = {},
) {
  const root = tempApp()
  const app: Application = await createApp({
    root,
    env: { APP_ENV: 'test', APP_URL: appUrl },
    config: { ...config, http: { trusted_proxies: trusted, ...(config.http as object) } },
  })
  t.teardown(() => app.close())
  app.router.get('/who', ({ request }) => ({
    ip: request.ip(),
    ips: request.ips(),
    scheme: request.scheme(),
    secure: request.secure(),
    host: request.host(),
    origin: request.url.origin,
    absolute: app.urls.to('/reset', { absolute: true }),
  }))
  app.router.get('/download', () => ({ ok: true })).middleware(['signed'])
  app.router.group({ middleware: ['web'] }, () => app.router.get('/page', () => ({ ok: true })))
  const server = await app.listen({ port: 0 })
  const front = await forwardingProxy(server.url, proxy)
  t.teardown(() => front.close())
  return { app, server, proxy: front, root }
}

const who = async (client: LoopbackClient, headers: Record<string, string> = {}): Promise<Seen> =>
  JSON.parse((await client.request('GET', '/who', { headers })).body)

test('behind a trusted proxy: the client’s address, the chain, and the scheme and host it used; URLs the app makes keep APP_URL', async (t) => {
  const { proxy } = await proxiedApp(t, ['127.0.0.1'], { proto: 'https' })
  const seen = await who(new LoopbackClient(proxy.url, '127.0.0.2'), { host: 'shop.example', 'x-forwarded-for': '198.51.100.9' })
  t.deepEqual(seen, {
    ip: '127.0.0.2',
    ips: ['127.0.0.2', '127.0.0.1'],
    scheme: 'https',
    secure: true,
    host: 'shop.example',
    origin: 'https://shop.example',
    // Links in mails and redirects come from APP_URL, never from the Host a request claims.
    absolute: 'https://app.example/reset',
  })
})

test('behind an untrusted proxy, and for a client that connects directly, forwarding headers are ignored', async (t) => {
  const { proxy, server } = await proxiedApp(t, [], { proto: 'https' })
  const viaProxy = await who(new LoopbackClient(proxy.url, '127.0.0.2'), { 'x-forwarded-for': '198.51.100.9' })
  t.is(viaProxy.ip, '127.0.0.1', 'the proxy’s own address')
  t.deepEqual(viaProxy.ips, ['127.0.0.1'])
  t.is(viaProxy.scheme, 'http')
  const forged = {
    'x-forwarded-for': '198.51.100.9',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'evil.example',
    forwarded: 'for=198.51.100.9;proto=https',
  }
  const direct = await who(new LoopbackClient(server.url, '127.0.0.3'), forged)
  t.is(direct.ip, '127.0.0.3')
  t.is(direct.scheme, 'http')
  t.false(direct.secure)
  t.is(direct.host, new URL(server.url).host)

  // A proxy is trusted, but this client is not it.
  const trusted = await proxiedApp(t, ['127.0.0.1'])
  const stillDirect = await who(new LoopbackClient(trusted.server.url, '127.0.0.3'), forged)
  t.deepEqual([stillDirect.ip, stillDirect.scheme, stillDirect.host], ['127.0.0.3', 'http', new URL(trusted.server.url).host])
})

test('Forwarded (RFC 7239) from a trusted proxy names the client, scheme and host; what the client wrote before it is not believed', async (t) => {
  const { proxy } = await proxiedApp(t, ['127.0.0.1'], { headers: 'forwarded', proto: 'https' })
  const seen = await who(new LoopbackClient(proxy.url, '127.0.0.2'), { host: 'shop.example:8443', forwarded: 'for=198.51.100.9;proto=http;host=evil.example' })
  t.is(seen.ip, '127.0.0.2')
  t.deepEqual(seen.ips, ['127.0.0.2', '127.0.0.1'])
  t.is(seen.origin, 'https://shop.example:8443')
})

test('beside X-Forwarded-For, a Forwarded header is ignored: a proxy that writes the one passes the other through from the client', async (t) => {
  const { proxy } = await proxiedApp(t, ['127.0.0.1'])
  const seen = await who(new LoopbackClient(proxy.url, '127.0.0.2'), { forwarded: 'for=198.51.100.9;proto=https;host=evil.example' })
  t.deepEqual([seen.ip, seen.scheme, seen.host.startsWith('evil')], ['127.0.0.2', 'http', false])
})

test('an absolute signed URL made for https://app.example validates behind a trusted proxy that terminates TLS, and not behind an untrusted one', async (t) => {
  const check = async (trusted: string[]) => {
    const { app, proxy } = await proxiedApp(t, trusted, { proto: 'https' })
    const signed = new URL(app.service('signer').sign('/download', { absolute: true, ttlMinutes: 5 }))
    t.is(signed.origin, 'https://app.example')
    const client = new LoopbackClient(proxy.url, '127.0.0.2')
    return (await client.request('GET', `${signed.pathname}${signed.search}`, { headers: { host: 'app.example' } })).status
  }
  t.is(await check(['127.0.0.1']), 200)
  t.is(await check([]), 403)
})

test('with an http APP_URL, the session and XSRF-TOKEN cookies are Secure when the request came over https through a trusted proxy, and only then', async (t) => {
  const cookies = async (trusted: string[], proto: 'http' | 'https') => {
    const { proxy } = await proxiedApp(t, trusted, { proto }, { appUrl: 'http://app.example' })
    const res = await new LoopbackClient(proxy.url, '127.0.0.2').request('GET', '/page')
    return (res.headers['set-cookie'] ?? []).map((line) => `${line.split('=')[0]}: ${/;\s*secure/i.test(line) ? 'Secure' : 'plain'}`).sort()
  }
  t.deepEqual(await cookies(['127.0.0.1'], 'https'), ['XSRF-TOKEN: Secure', 'kiln_session: Secure'])
  t.deepEqual(await cookies(['127.0.0.1'], 'http'), ['XSRF-TOKEN: plain', 'kiln_session: plain'])
  t.deepEqual(await cookies([], 'https'), ['XSRF-TOKEN: plain', 'kiln_session: plain'], 'an untrusted proxy’s word is not taken')
})

test('the request log records the client’s address, behind a trusted proxy the forwarded one', async (t) => {
  const { proxy, root } = await proxiedApp(
    t,
    ['127.0.0.1'],
    {},
    { config: { http: { request_log: true }, logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/requests.log' } } } },
  )
  await new LoopbackClient(proxy.url, '127.0.0.3').request('GET', '/who')
  const entries = readFileSync(join(root, 'storage/logs/requests.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; req?: { url: string; remoteAddress?: string } })
    .filter((entry) => entry.msg === 'request completed')
  t.deepEqual(
    entries.map((entry) => [entry.req!.url, entry.req!.remoteAddress]),
    [['/who', '127.0.0.3']],
  )
})

test('an invalid trusted_proxies entry stops the boot, naming it; named ranges and * are accepted', async (t) => {
  for (const [entry, shown] of [
    ['10.0.0.300', '"10.0.0.300" is not an IP address, a CIDR range'],
    ['10.0.0.0/33', '"10.0.0.0/33": an IPv4 range'],
    ['fd00::/129', 'prefix is 0 to 128'],
    ['locahost', '"locahost" is not an IP address'],
    ['fe80::1%eth0', 'is not an IP address'],
  ] as const) {
    const error = await t.throwsAsync(createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config: { http: { trusted_proxies: ['loopback', entry] } } }))
    t.true(error!.message.startsWith('Invalid configuration in config/http.ts: trusted_proxies'), error!.message)
    t.true(error!.message.includes(shown), error!.message)
  }
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    config: { http: { trusted_proxies: ' loopback, private ,linklocal,uniquelocal, *, 10.0.0.0/8, ::ffff:192.0.2.0/120, 2001:db8::/32' } },
  })
  t.teardown(() => app.close())
  const proxies = app.service('proxies')
  t.true(proxies.trusts('192.0.2.77'), 'a mapped range is its IPv4 range')
  t.true(proxies.trusts('::ffff:10.1.2.3'))
  t.true(proxies.trusts('2001:db8::5'))
  t.false(proxies.trusts('203.0.113.7'))
  t.true(proxies.trustsPeer('203.0.113.7'), '* trusts any peer')
})

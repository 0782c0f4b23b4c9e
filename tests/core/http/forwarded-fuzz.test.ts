import test from 'ava'
import { createApp, resolveForwarded, TrustedProxies } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** A small deterministic PRNG, so a failure reproduces. */
function prng(seed: number) {
  let s = seed >>> 0
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32
}

// Headers must be Latin-1 without control characters, or the client refuses them before the server sees them.
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '')

/** Pieces of what proxies and attackers write in forwarding headers. */
const ALPHABET = [
  ',',
  ', ',
  ';',
  '=',
  '"',
  '\\',
  '[',
  ']',
  ':',
  '%',
  ' ',
  'for=',
  'proto=',
  'host=',
  'by=',
  'For=',
  'unknown',
  '_hidden',
  '"[::1]:80"',
  '[2001:db8::1]:4711',
  '203.0.113.7',
  '10.0.0.2',
  '127.0.0.1',
  '::1',
  '::ffff:10.0.0.3',
  'fe80::1%eth0',
  '1.2.3.4:5678',
  '999.1.1.1',
  'https',
  'http',
  'HTTPS',
  'app.example',
  'app.example:8443',
  'evil.example/path',
  '65536',
  '443',
  '__proto__',
  'constructor',
  '\u0000',
  '😀',
  '\r\n',
]

const NAMES = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded']
const PEERS = ['10.0.0.1', '127.0.0.1', '::1', '::ffff:10.0.0.1', '203.0.113.99', '', 'garbage']
const TRUSTED = [['10.0.0.0/8', 'loopback'], ['*'], ['*', 'private'], ['2001:db8::/32', '127.0.0.1'], []]

test('fuzz: the resolver never throws on random forwarding headers, and only ever answers with addresses, http/https, hosts and ports', (t) => {
  const random = prng(20260521)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const junk = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pick(ALPHABET)).join('')
  const sets = TRUSTED.map((entries) => TrustedProxies.from(entries))
  for (let i = 0; i < 20_000; i++) {
    const headers: Record<string, string> = {}
    for (const name of NAMES) if (random() < 0.5) headers[name] = random() < 0.02 ? junk(3).repeat(2000) : junk(12)
    const peer = pick(PEERS)
    const proxies = pick(sets)
    let result
    try {
      result = resolveForwarded(peer, (name) => headers[name], proxies)
    } catch (error) {
      t.fail(`threw on ${JSON.stringify({ peer, headers })}: ${String(error)}`)
      return
    }
    // The client is an address (or the peer as the server gave it); the chain ends at the peer.
    if (peer === '') t.deepEqual(result.ips, [])
    else {
      t.is(result.ips.at(-1), peer.startsWith('::ffff:') ? peer.slice(7) : peer)
      t.true(result.ips[0] === result.ip, 'the client first')
      t.true(result.ips.length <= 33)
    }
    if (result.scheme !== undefined) t.true(result.scheme === 'http' || result.scheme === 'https')
    if (result.host !== undefined) t.regex(result.host, /^[a-z0-9_.:[\]-]+$/)
    if (result.port !== undefined) t.true(Number(result.port) >= 1 && Number(result.port) <= 65535)
  }
})

test('fuzz: random forwarding headers from a trusted peer never produce a 5xx, and the request’s URL stays a valid http(s) URL', async (t) => {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test' },
    config: { http: { trusted_proxies: ['127.0.0.1', '10.0.0.0/8'] }, session: { driver: 'memory' } },
  })
  t.teardown(() => app.close())
  app.router.group({ middleware: ['web'] }, () =>
    app.router.get('/who', ({ request }) => ({
      ip: request.ip() ?? null,
      ips: request.ips(),
      secure: request.secure(),
      url: request.url.href,
      host: request.host(),
    })),
  )
  const random = prng(20260522)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const junk = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pick(ALPHABET)).join('')
  let believed = 0
  for (let i = 0; i < 400; i++) {
    const headers: Record<string, string> = { accept: 'application/json' }
    for (const name of NAMES) if (random() < 0.6) headers[name] = headerSafe(junk(10))
    // Half the time a proxy's own entry on the right of the junk, as a real proxy appends it.
    if (random() < 0.5)
      headers['x-forwarded-for'] = `${headers['x-forwarded-for'] ?? ''}, ${pick(['203.0.113.7', '10.0.0.2', '"[2001:db8::1]:80"', '198.51.100.4:81'])}`
    const request = new Request('http://localhost/who', { headers })
    // The peer the server would have given: app.request() has none of its own.
    Object.defineProperty(request, 'ip', { value: pick(['127.0.0.1', '10.0.0.9', '203.0.113.5']) })
    const res = await app.request(request)
    t.true(res.status < 500, `${res.status} for ${JSON.stringify(headers)}`)
    if (res.status !== 200) continue
    const body = (await res.json()) as { url: string; secure: boolean; ips: string[] }
    if (body.ips.length > 1) believed++
    const url = new URL(body.url)
    t.true(url.protocol === 'http:' || url.protocol === 'https:')
    t.is(url.pathname, '/who')
    t.is(body.secure, url.protocol === 'https:')
  }
  t.true(believed > 20, `${believed} requests had a forwarded client believed`)
})

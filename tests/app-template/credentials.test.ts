import { request, type IncomingHttpHeaders } from 'node:http'
import test from 'ava'
import { TestClient } from '../../core/testing/index.ts'
import { starterApp } from '../fixtures/starter-app.ts'

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - started) / 1e6
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

for (const [path, body] of [
  ['/login', (email: string) => ({ email, password: 'wrong-password' })],
  ['/tok/token', (email: string) => ({ email, password: 'wrong-password', device_name: 'cli' })],
] as const) {
  test(`${path}: an unknown email costs the same password check as a known one (no account enumeration by timing)`, async (t) => {
    const app = await starterApp(t, 'sqlite')
    const client = new TestClient(app)
    await client.get('/')
    const known: number[] = []
    const unknown: number[] = []
    // Unknown emails differ each time; the known one is tried five times, as many as the throttle (5 per email and
    // address) lets through. Each pair's order alternates, so a moment when the shared machine is busier weighs on both
    // sides alike.
    const tryKnown = async () => known.push(await timed(async () => t.is((await client.json('POST', path, body('test@example.com'))).status, 422)))
    for (let i = 0; i < 5; i++) {
      const tryUnknown = async () => unknown.push(await timed(async () => t.is((await client.json('POST', path, body(`nobody-${i}@example.com`))).status, 422)))
      if (i % 2 === 0) await tryKnown().then(tryUnknown)
      else await tryUnknown().then(tryKnown)
    }
    // Not a speed test: a password check (scrypt) dominates both, so they are of one size. Before, an unknown email
    // skipped it and answered some fifty times faster.
    t.true(median(unknown) > median(known) * 0.5, `unknown ${median(unknown).toFixed(1)} ms vs known ${median(known).toFixed(1)} ms`)
  })
}

test('/login and /tok/token: 5 attempts a minute per email and address, then 429 with Retry-After; another email is not affected', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const server = await app.listen({ port: 0 })
  const attempt = (path: string, email: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email, password: 'x', device_name: 'cli' }),
    })
  // Parallel: an atomic counter lets exactly five through, however the requests interleave.
  const statuses = await Promise.all(Array.from({ length: 12 }, () => attempt('/tok/token', 'test@example.com').then((res) => res.status)))
  t.is(statuses.filter((status) => status === 422).length, 5, JSON.stringify(statuses))
  t.is(statuses.filter((status) => status === 429).length, 7)
  const limited = await attempt('/tok/token', 'Test@Example.com ')
  t.is(limited.status, 429)
  t.deepEqual(await limited.json(), { message: 'Too many requests.' })
  t.true(Number(limited.headers.get('retry-after')) >= 1)
  t.is((await attempt('/tok/token', 'other@example.com')).status, 422)
})

/**
 * A browser on a given local address (127.0.0.x: every one of them is this machine) against a real server: it keeps
 * the cookies and sends the XSRF token back, as the starter's login form needs.
 */
function visitorFrom(localAddress: string, base: string) {
  const cookies = new Map<string, string>()
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json', cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      if (body !== undefined) headers['content-type'] = 'application/json'
      const xsrf = cookies.get('XSRF-TOKEN')
      if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf)
      const req = request(`${base}${path}`, { method, localAddress, headers }, (res) => {
        for (const line of res.headers['set-cookie'] ?? []) {
          const [pair] = line.split(';')
          const eq = pair!.indexOf('=')
          cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1))
        }
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      })
      req.on('error', reject)
      req.end(body === undefined ? undefined : JSON.stringify(body))
    })
  return { get: (path: string) => send('GET', path), post: (path: string, body: unknown) => send('POST', path, body) }
}

test('/login and /tok/token: 20 attempts a minute from one address whatever the emails (password spraying), then 429; another address still gets in', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const server = await app.listen({ port: 0 })
  const visitors = new Map<string, ReturnType<typeof visitorFrom>>()
  const attempt = async (path: string, from: string, email: string, password = 'Summer2024!') => {
    let visitor = visitors.get(from)
    if (!visitor) {
      visitors.set(from, (visitor = visitorFrom(from, server.url)))
      await visitor.get('/')
    }
    return visitor.post(path, { email, password, device_name: 'cli' })
  }

  for (const [path, from] of [
    ['/login', '127.0.0.1'],
    ['/tok/token', '127.0.0.3'],
  ] as const) {
    // One common password against 20 accounts from one address (the first alone, for the cookies; then 19 in
    // parallel): each a first try for its email.
    await attempt(path, from, 'warm-up@example.com').then((res) => t.is(res.status, 422))
    const statuses = await Promise.all(Array.from({ length: 19 }, (_, i) => attempt(path, from, `user-${i}@example.com`).then((res) => res.status)))
    t.deepEqual(statuses, Array<number>(19).fill(422), path)
    const sprayed = await attempt(path, from, 'user-20@example.com')
    t.is(sprayed.status, 429, path)
    t.deepEqual(JSON.parse(sprayed.body), { message: 'Too many requests.' })
    t.true(Number(sprayed.headers['retry-after']) >= 1)
    // The right password from there is refused too: the address is over its limit, whatever it tries.
    t.is((await attempt(path, from, 'test@example.com', 'password')).status, 429, path)
  }
  // Both routes count in one limiter: the address sprayed through /login is refused by /tok/token too.
  t.is((await attempt('/tok/token', '127.0.0.1', 'test@example.com', 'password')).status, 429)
  // Another address has its own count.
  t.is((await attempt('/login', '127.0.0.2', 'test@example.com', 'password')).status, 200)
  t.is((await attempt('/tok/token', '127.0.0.2', 'test@example.com', 'password')).status, 201)
})

test('a logged-in user is limited by account: 5 credential checks a minute whatever the emails, and guests from the same address are not', async (t) => {
  const app = await starterApp(t, 'sqlite')
  const user = new TestClient(app)
  await user.get('/')
  t.is((await user.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
  // Logged in, each try counts for this user: five different emails, then the sixth is refused.
  const statuses: number[] = []
  for (let i = 0; i < 6; i++) statuses.push((await user.json('POST', '/login', { email: `user-${i}@example.com`, password: 'Summer2024!' })).status)
  t.deepEqual(statuses, [422, 422, 422, 422, 422, 429])
  // A guest at the same address has its own count per email (the address as a whole is still under 20).
  const guest = new TestClient(app)
  await guest.get('/')
  t.is((await guest.json('POST', '/login', { email: 'user-5@example.com', password: 'Summer2024!' })).status, 422)
  t.is((await guest.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
})

import { request, type IncomingHttpHeaders } from 'node:http'
import { createHook } from 'node:async_hooks'
import test from 'ava'
import { TestClient } from '../../core/testing/index.ts'
import { starterApp } from '../fixtures/starter-app.ts'

/**
 * How many scrypt operations `fn` started: Node gives each one an async resource of type `SCRYPTREQUEST`. A count, not a
 * clock, so a busy machine cannot make the test fail or pass.
 */
async function scryptRuns(fn: () => Promise<unknown>): Promise<number> {
  let runs = 0
  const hook = createHook({
    init(_id, type) {
      if (type === 'SCRYPTREQUEST') runs++
    },
  }).enable()
  try {
    await fn()
  } finally {
    hook.disable()
  }
  return runs
}

for (const [path, body] of [
  ['/login', (email: string) => ({ email, password: 'wrong-password' })],
  ['/tok/token', (email: string) => ({ email, password: 'wrong-password', device_name: 'cli' })],
] as const) {
  // Serial (ava runs these before the concurrent tests): the hook counts every scrypt of the process.
  test.serial(`${path}: an unknown email costs the same password check as a known one (no account enumeration by timing)`, async (t) => {
    const app = await starterApp(t, 'sqlite')
    const client = new TestClient(app)
    await client.get('/')
    const attempt = (email: string) => scryptRuns(async () => t.is((await client.json('POST', path, body(email))).status, 422))
    // One password check (scrypt, tens of milliseconds) each: before, an unknown email skipped it and answered some
    // fifty times faster, which told who has an account.
    // The first unknown email also hashes the dummy password that later ones are checked against: one more, never fewer.
    t.true((await attempt('first-nobody@example.com')) >= 1)
    t.is(await attempt('test@example.com'), 1, 'a known email with a wrong password: one check')
    t.is(await attempt('nobody@example.com'), 1, 'an unknown email: the same check')
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

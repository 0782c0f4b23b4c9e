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

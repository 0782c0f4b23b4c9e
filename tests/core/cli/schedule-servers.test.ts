import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import test from 'ava'
import { Redis } from 'ioredis'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { freePort } from '../../fixtures/redis-server.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { BIN, bin, lines } from './cli-harness.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const UTC = { TZ: 'UTC' }
const PRODUCTION = { APP_ENV: 'production', NODE_ENV: 'production', APP_URL: 'https://app.example' }

/**
 * Two servers of one app: two copies of the same small app (each its own root, so its own storage/), with the same
 * APP_NAME (so the same Redis prefix, unique to this test) and the cache store from CACHE_STORE, as the starter's.
 * Their tasks write to a log outside both roots, the one place both can see.
 */
function twoServers(
  t: { teardown(fn: () => unknown): void },
  { cacheStore = 'redis', redisUrl = REDIS_URL, oneServer = true }: { cacheStore?: 'redis' | 'fs' | 'memory'; redisUrl?: string; oneServer?: boolean } = {},
) {
  const shared = mkdtempSync(join(tmpdir(), 'kiln-schedule-servers-'))
  const log = join(shared, 'runs.log')
  const release = join(shared, 'release')
  const name = `kiln-sched-${randomBytes(4).toString('hex')}`
  const files = {
    '.env': `APP_KEY=${generateAppKey()}\nAPP_NAME=${name}\nCACHE_STORE=${cacheStore}\nREDIS_URL=${redisUrl}\n`,
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'config/storage.ts': `import { defineConfig } from 'kiln-framework'
export default defineConfig(({ env }) => ({
  stores: {
    local: { driver: 'fs', base: 'storage/app' },
    cache: { driver: env.get('CACHE_STORE', 'memory'), base: 'storage/framework/cache', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') },
  },
}))
`,
    'routes/console.ts': `import { appendFileSync, existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { defineSchedule } from 'kiln-framework'

const note = (word: string) => appendFileSync(${JSON.stringify(log)}, word + '\\n')

export default defineSchedule((Schedule) => {
  Schedule.call(() => note('every')).everyMinute().description('Every minute')
  ${oneServer ? "Schedule.call(() => note('report')).cron('0-5 13 * * *').onOneServer().description('Report')" : ''}
  Schedule.call(async () => {
    note('import-start')
    while (!existsSync(${JSON.stringify(release)})) await sleep(20)
    note('import-end')
  }).cron('30 4 * * *').withoutOverlapping().description('Slow import')
})
`,
  }
  t.teardown(async () => {
    // A failed assertion ends the test: runs still waiting for the release must end too.
    writeFileSync(release, '')
    if (cacheStore !== 'redis' || redisUrl !== REDIS_URL) return
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${name.replace(/-/g, '_')}:*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })
  return {
    roots: [tempApp(files), tempApp(files)] as const,
    prefix: `${name.replace(/-/g, '_')}:cache`,
    release: () => writeFileSync(release, ''),
    /** What the tasks wrote, sorted. */
    runs: () => (existsSync(log) ? lines(readFileSync(log, 'utf8')).sort() : []),
  }
}

const run = (root: string, time: string, env: Record<string, string> = {}) => bin(['schedule:run', `--time=${time}`], root, { ...UTC, ...env })

test('onOneServer: two schedule:run on two servers at the same minute, the task runs on one; each new minute runs it once again', async (t) => {
  const servers = twoServers(t)
  const [a, b] = servers.roots
  for (const [minute, time] of ['2026-11-27T13:00:00Z', '2026-11-27T13:01:00Z', '2026-11-27T13:02:00Z'].entries()) {
    // Both started together, as cron starts them on two machines.
    const results = await Promise.all([run(a, time), run(b, time)])
    for (const result of results) t.is(result.code, 0, result.stderr)
    const ran = results.filter((r) => /^Ran: Report$/m.test(r.stdout))
    const skipped = results.filter((r) => /^Skipped: Report \(another server runs it this minute\)$/m.test(r.stdout))
    t.is(ran.length, 1, `minute ${minute}: ${results.map((r) => r.stdout).join('\n')}`)
    t.is(skipped.length, 1)
    // The task without the flag runs on both.
    for (const result of results) t.regex(result.stdout, /^Ran: Every minute$/m)
    t.deepEqual(
      servers.runs().filter((word) => word === 'report'),
      Array.from({ length: minute + 1 }, () => 'report'),
    )
  }
  // The claim outlives the run: a server that starts late in the minute skips it as well.
  t.regex((await run(b, '2026-11-27T13:00:30Z')).stdout, /^Skipped: Report \(another server runs it this minute\)$/m)
  t.is(servers.runs().filter((word) => word === 'report').length, 3)
  t.is(servers.runs().filter((word) => word === 'every').length, 7)
})

test('withoutOverlapping with the cache store on Redis: a run on the other server skips the task while the first still runs it', async (t) => {
  const servers = twoServers(t, { oneServer: false })
  const [a, b] = servers.roots
  const first = spawn(process.execPath, [BIN, 'schedule:run', '--time=2026-11-27T04:30:00Z'], { cwd: a, env: { ...process.env, APP_ENV: 'test', ...UTC } })
  let out = ''
  first.stdout.on('data', (chunk) => (out += String(chunk)))
  first.stderr.on('data', (chunk) => (out += String(chunk)))
  let firstDone = false
  const exited = new Promise<number>((resolve) => first.on('exit', (code) => resolve(code ?? 1))).finally(() => (firstDone = true))
  t.teardown(() => first.kill())
  while (!servers.runs().includes('import-start')) {
    if (firstDone) return t.fail(`the first run ended before it started the task: ${out}`)
    await sleep(20)
  }

  let secondDone = false
  const secondRun = run(b, '2026-11-27T04:30:00Z').finally(() => (secondDone = true))
  const starts = () => servers.runs().filter((word) => word === 'import-start').length
  // Until the second run ends, or starts the task a second time (it would then wait for the release: not a hang here).
  while (!secondDone && starts() < 2) await sleep(20)
  t.is(starts(), 1, 'the task started on both servers at once')
  servers.release()
  const second = await secondRun
  t.is(second.code, 0, second.stderr)
  t.regex(second.stdout, /^Skipped: Slow import \(its previous run has not finished\)$/m)
  t.deepEqual(
    servers.runs().filter((word) => word !== 'import-end'),
    ['every', 'every', 'import-start'],
  )

  t.is(await exited, 0, out)
  t.regex(out, /^Ran: Slow import$/m)
  // Released with the run: the other server runs it next time.
  t.regex((await run(b, '2026-11-27T04:30:00Z')).stdout, /^Ran: Slow import$/m)
  t.deepEqual(servers.runs(), ['every', 'every', 'every', 'import-end', 'import-end', 'import-start', 'import-start'])
})

test('a withoutOverlapping lock left by a crashed run on Redis expires after its minutes', async (t) => {
  const servers = twoServers(t, { oneServer: false })
  const [a] = servers.roots
  // A dead server's lock: held under the task's key, with an expiry, by nobody alive. Found the way a server would.
  const first = spawn(process.execPath, [BIN, 'schedule:run', '--time=2026-11-27T04:30:00Z'], { cwd: a, env: { ...process.env, APP_ENV: 'test', ...UTC } })
  let firstDone = false
  const exited = new Promise<void>((resolve) => first.on('exit', () => resolve())).finally(() => (firstDone = true))
  t.teardown(() => first.kill())
  while (!servers.runs().includes('import-start')) {
    if (firstDone) return t.fail('the first run ended before it started the task')
    await sleep(20)
  }
  first.kill('SIGKILL')
  await exited
  const redis = new Redis(REDIS_URL)
  t.teardown(() => redis.quit())
  const [key] = await redis.keys(`${servers.prefix}:lock:schedule:*:running`)
  if (!key) return t.fail('the running lock is not in the cache store')
  const ttl = await redis.pttl(key)
  // withoutOverlapping()'s default: 1440 minutes.
  t.true(ttl > 1439 * 60_000 && ttl <= 1440 * 60_000, `pttl ${ttl}`)
  t.regex((await run(servers.roots[1], '2026-11-27T04:30:00Z')).stdout, /^Skipped: Slow import/m)
  // Its time run out (shortened here, as if the minutes had passed), the lock is gone and the task runs again.
  await redis.pexpire(key, 1)
  while ((await redis.exists(key)) === 1) await sleep(10)
  servers.release()
  t.regex((await run(servers.roots[1], '2026-11-27T04:30:00Z')).stdout, /^Ran: Slow import$/m)
})

for (const store of ['fs', 'memory'] as const) {
  test(`in production, onOneServer with CACHE_STORE=${store}: schedule:run refuses the schedule, naming CACHE_STORE=redis, and runs nothing`, async (t) => {
    const servers = twoServers(t, { cacheStore: store })
    const result = await run(servers.roots[0], '2026-11-27T13:00:00Z', PRODUCTION)
    t.is(result.code, 1)
    t.regex(result.stderr, /onOneServer\(\) \("Report"\) needs a cache store shared by every server/)
    t.regex(result.stderr, new RegExp(`uses the "${store}" driver`))
    t.regex(result.stderr, /Set CACHE_STORE=redis/)
    t.notRegex(result.stderr, /^\s+at /m)
    t.deepEqual(servers.runs(), [])
    // schedule:list still lists, with the flags, and says the same.
    const list = await bin(['schedule:list', '--time=2026-11-27T13:00:00Z'], servers.roots[0], { ...UTC, ...PRODUCTION })
    t.is(list.code, 0, list.stderr)
    t.regex(list.stdout, /^CRON\s+TASK\s+NEXT RUN\s+ZONE\s+FLAGS$/m)
    t.regex(list.stdout, /^0-5 13 \* \* \*\s+Report\s+\S+\s+local\s+one server$/m)
    t.regex(list.stdout, /^30 4 \* \* \*\s+Slow import\s+\S+\s+local\s+without overlapping$/m)
    t.regex(list.stderr, /Set CACHE_STORE=redis/)
  })
}

test('outside production, onOneServer with CACHE_STORE=fs runs once per machine, with the warning', async (t) => {
  const servers = twoServers(t, { cacheStore: 'fs' })
  const results = await Promise.all([servers.roots[0], servers.roots[0], servers.roots[1]].map((root) => run(root, '2026-11-27T13:00:00Z')))
  for (const result of results) {
    t.is(result.code, 0, result.stderr)
    t.regex(result.stderr, /Set CACHE_STORE=redis.*Outside production these tasks run once per machine\./s)
  }
  t.deepEqual(
    servers.runs().filter((line) => line === 'report'),
    ['report', 'report'],
    'once on each of the two machines',
  )
})

test('onOneServer while Redis is down: the task fails at once with a message naming the cache store, the others run', async (t) => {
  const servers = twoServers(t, { redisUrl: `redis://127.0.0.1:${await freePort()}` })
  const result = await run(servers.roots[0], '2026-11-27T13:00:00Z')
  t.is(result.code, 1)
  t.regex(result.stderr, /^Failed: Report: the "cache" store is unavailable, so the lock of onOneServer\(\) was not taken and the task did not run/m)
  t.regex(result.stdout, /^Ran: Every minute$/m)
  t.deepEqual(servers.runs(), ['every'])
})

import { randomBytes } from 'node:crypto'
import test from 'ava'
import { createApp, Job, RedisQueue, runWithApp } from '../../../core/index.ts'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, lines } from './cli-harness.ts'

// Fails while `failing` is true; a retried job then succeeds.
let failing = true
const handled: string[] = []
class ChargeCard extends Job {
  constructor(public order: string) {
    super()
  }
  handle() {
    if (failing) throw new Error(`card declined for ${this.order}`)
    handled.push(this.order)
  }
}

function redisApp() {
  const name = `failed-${randomBytes(4).toString('hex')}`
  const root = tempApp({
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    // The default redis connection's key prefix is the app's name: unique per test, so queues never meet.
    '.env': `APP_KEY=${generateAppKey()}\nAPP_NAME=${name}\nQUEUE_CONNECTION=redis\nREDIS_URL=${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}\n`,
  })
  return root
}

/** Boots the app in this process, dispatches `orders`, works them with a bullmq worker until `until` holds. */
async function work(root: string, orders: string[], until: (driver: RedisQueue) => Promise<boolean>) {
  const app = await createApp({ root, env: { APP_ENV: 'test' } })
  try {
    app.service('queue').register(ChargeCard)
    const driver = app.service('queue').connections.connection('redis') as RedisQueue
    await runWithApp(app, async () => {
      for (const order of orders) await ChargeCard.dispatch(order)
    })
    await driver.work(['default'])
    for (let i = 0; i < 500 && !(await until(driver)); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    return await until(driver)
  } finally {
    await app.close()
  }
}

const failedCount = async (driver: RedisQueue) => (await driver.bullQueue<import('bullmq').Queue>('default')).getFailedCount()

test.serial('queue:failed lists the jobs kept in Redis, queue:retry puts one or all back, queue:flush deletes them', async (t) => {
  const root = redisApp()
  t.is((await bin(['queue:failed'], root)).stdout, 'No failed jobs.\n')
  failing = true
  t.true(await work(root, ['A-1', 'A-2'], async (driver) => (await failedCount(driver)) === 2))

  const listed = await bin(['queue:failed'], root)
  t.is(listed.code, 0, listed.stderr)
  const rows = lines(listed.stdout)
  t.regex(rows[0]!, /^ID\s+JOB\s+FAILED AT\s+ATTEMPTS\s+ERROR$/)
  t.is(rows.length, 3)
  t.regex(listed.stdout, /^default:\d+\s+ChargeCard\s+\d{4}-\d\d-\d\dT\S+\s+1\s+card declined for A-[12]$/m)
  const ids = rows.slice(1).map((row) => row.split(/\s+/)[0]!)

  // One by its id: it leaves the failed list and, worked again, succeeds.
  const one = await bin(['queue:retry', ids[0]!], root)
  t.is(one.code, 0, one.stderr)
  t.regex(one.stdout, new RegExp(`^Retrying ${ids[0]} \\(ChargeCard\\)\\.$`, 'm'))
  t.is(lines((await bin(['queue:failed'], root)).stdout).length, 2)
  const missing = await bin(['queue:retry', 'default:999999'], root)
  t.is(missing.code, 1)
  t.regex(missing.stderr, /^No failed job default:999999\. Run `kiln queue:failed` for their ids\.$/m)

  failing = false
  handled.length = 0
  t.true(await work(root, [], async () => handled.length === 1))
  t.is((await bin(['queue:failed'], root)).stdout.split('\n').length - 1, 2, 'the other one is still failed')

  // All of them.
  const all = await bin(['queue:retry', 'all'], root)
  t.regex(all.stdout, /^Retrying 1 failed job\.$/m)
  t.true(await work(root, [], async () => handled.length === 2))
  t.is((await bin(['queue:failed'], root)).stdout, 'No failed jobs.\n')

  // queue:flush empties the failed list.
  failing = true
  t.true(await work(root, ['B-1', 'B-2', 'B-3'], async (driver) => (await failedCount(driver)) === 3))
  const flushed = await bin(['queue:flush'], root)
  t.is(flushed.code, 0, flushed.stderr)
  t.regex(flushed.stdout, /^Deleted 3 failed jobs\.$/m)
  t.is((await bin(['queue:failed'], root)).stdout, 'No failed jobs.\n')
  const prod = await bin(['queue:flush'], root, { APP_ENV: 'production', APP_URL: 'https://shop.example.com' })
  t.is(prod.code, 1)
  t.regex(prod.stderr, /Refusing to run "queue:flush" in production \(it deletes the failed jobs\)/)
})

test('the memory and sync connections keep failed jobs in their own process: the commands say so and exit 1', async (t) => {
  const root = redisApp()
  for (const argv of [
    ['queue:failed', '--connection=memory'],
    ['queue:retry', 'all', '--connection=sync'],
    ['queue:flush', '--connection=memory'],
  ]) {
    const result = await bin(argv, root)
    t.is(result.code, 1, argv.join(' '))
    t.regex(result.stderr, /keeps failed jobs in the memory of the process that ran them \(Queue\.failed\(\) there\).*"redis" driver/)
  }
})

import { randomBytes } from 'node:crypto'
import test from 'ava'
import { Job, RedisQueue, runWithApp, type Application } from '../../../core/index.ts'
import { Author, databaseApp } from '../../fixtures/database.ts'

const log: string[] = []

class Record extends Job {
  constructor(public label: string) {
    super()
  }
  handle() {
    log.push(this.label)
  }
}

class Chain extends Job {
  constructor(public depth: number) {
    super()
  }
  async handle() {
    log.push(`chain-${this.depth}`)
    if (this.depth > 0) await Chain.dispatch(this.depth - 1)
  }
}

let flakyRuns = 0
class Flaky extends Job {
  static tries = 3
  static backoff = [5, 10]
  constructor(public secret: string) {
    super()
  }
  handle() {
    flakyRuns++
    throw new Error(`flaky attempt ${flakyRuns}`)
  }
}

class Greet extends Job {
  constructor(public author: Author) {
    super()
  }
  handle() {
    log.push(`hello ${this.author.name}`)
  }
}

async function within<T>(app: Application, fn: () => Promise<T>): Promise<T> {
  return runWithApp(app, fn)
}

test.serial('memory: a job runs after dispatch returns, flush awaits chains of jobs', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  log.length = 0
  await within(app, async () => {
    await Record.dispatch('a')
    t.deepEqual(log, [], 'not run during dispatch')
    await Chain.dispatch(2)
    await app.service('queue').flush()
    t.deepEqual(log, ['a', 'chain-2', 'chain-1', 'chain-0'])
  })
})

test.serial('memory: retries with backoff, then records the failure with its payload', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  flakyRuns = 0
  await within(app, async () => {
    await Flaky.dispatch('payload-value')
    await app.service('queue').flush()
  })
  t.is(flakyRuns, 3)
  const failed = app.service('queue').failed()
  t.is(failed.length, 1)
  t.is(failed[0]!.job, 'Flaky')
  t.deepEqual(failed[0]!.data, { secret: 'payload-value' })
  t.regex(failed[0]!.error, /flaky attempt 3/)
})

test.serial('sync runs before dispatch resolves; models travel by key and are reloaded', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  log.length = 0
  await within(app, async () => {
    const author = await Author.create({ name: 'Ada' })
    await Author.query().where('id', author.id).update({ name: 'Ada Lovelace' })
    await Greet.dispatch(author).onConnection('sync')
    t.deepEqual(log, ['hello Ada Lovelace'], 'the worker saw the fresh row, not the stale object')
  })
})

test.serial('afterCommit jobs wait for the commit and are dropped on rollback', async (t) => {
  const app = await databaseApp(t, 'sqlite')
  log.length = 0
  const db = app.service('db')
  await within(app, async () => {
    await db.transaction(async () => {
      await Record.dispatch('committed').afterCommit()
      await app.service('queue').flush()
      t.deepEqual(log, [])
    })
    await db
      .transaction(async () => {
        await Record.dispatch('rolled-back').afterCommit()
        throw new Error('rollback')
      })
      .catch(() => {})
    await new Promise((r) => setTimeout(r, 10))
    await app.service('queue').flush()
  })
  t.deepEqual(log, ['committed'])
})

test.serial('redis (bullmq): a job pushed to the local Redis is worked by a worker in this process, with retries', async (t) => {
  const prefix = `kiln-test-${randomBytes(4).toString('hex')}`
  const app = await databaseApp(t, 'sqlite')
  app.config.set('queue.connections.redis', { driver: 'redis', url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix })
  log.length = 0
  flakyRuns = 0
  const queue = app.service('queue')
  const driver = queue.connections.connection('redis') as RedisQueue
  await driver.work(['default', 'other'])
  await within(app, async () => {
    await Record.dispatch('via-redis').onConnection('redis')
    await Record.dispatch('other-queue').onConnection('redis').onQueue('other')
    await Flaky.dispatch('x').onConnection('redis')
  })
  const deadline = Date.now() + 15_000
  while ((log.length < 2 || queue.failed().length < 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  t.deepEqual([...log].sort(), ['other-queue', 'via-redis'])
  t.is(flakyRuns, 3)
  t.is(queue.failed()[0]?.job, 'Flaky')
})

import type { Application } from '../application/application.ts'
import { CommandError, defineCommand } from '../cli/define-command.ts'
import { RedisQueue } from './redis-driver.ts'

/** bullmq's queue (an optional peer): typed here, where its jobs are read. */
type BullQueue = import('bullmq').Queue

// Failed jobs of the `redis` connection live in Redis (bullmq's failed set of each queue, the last 1000 per queue),
// so any process can list and retry them. The `memory` and `sync` connections keep theirs in the list of the process
// that ran them (`Queue.failed()`), which a separate `kiln` process cannot see.
function redisConnection(app: Application, name: string | undefined): RedisQueue {
  const connection = name ?? app.config.get<string>('queue.default')
  const driver = app.service('queue').connections.connection(connection)
  if (driver instanceof RedisQueue) return driver
  throw new CommandError(
    `The "${connection}" queue connection keeps failed jobs in the memory of the process that ran them (Queue.failed() there), so kiln cannot read them from another process. Failed jobs are kept for these commands by a connection with the "redis" driver: --connection=redis, or QUEUE_CONNECTION=redis.`,
  )
}

const connectionFlag = { connection: { type: 'string' as const, description: 'The queue connection (default: config/queue.ts default)' } }
const queueFlag = { queue: { type: 'string' as const, description: 'Only this queue (default: every queue with failed jobs)' } }

async function queueNames(driver: RedisQueue, only: unknown): Promise<string[]> {
  return typeof only === 'string' && only ? [only] : driver.queuesWithFailures()
}

/** `kiln queue:failed`: the jobs that used all their tries, newest first, with their id for `queue:retry`. */
export const queueFailedCommand = defineCommand({
  name: 'queue:failed',
  description: 'List the jobs that failed for good',
  flags: { ...connectionFlag, ...queueFlag },
  examples: ['kiln queue:failed', 'kiln queue:failed --queue=mail'],
  async run({ app, flags, info, table }) {
    const driver = redisConnection(app, flags.connection as string | undefined)
    const rows: Array<Record<string, string>> = []
    for (const name of await queueNames(driver, flags.queue)) {
      for (const job of await (await driver.bullQueue<BullQueue>(name)).getFailed()) {
        rows.push({
          id: `${name}:${job.id}`,
          job: job.name,
          'failed at': job.finishedOn ? new Date(job.finishedOn).toISOString() : '',
          attempts: String(job.attemptsMade),
          error: (job.failedReason ?? '').split('\n')[0]!.slice(0, 120),
        })
      }
    }
    if (rows.length === 0) return info('No failed jobs.')
    table(rows.sort((a, b) => b['failed at']!.localeCompare(a['failed at']!)))
  },
})

/** `kiln queue:retry <id|all>`: puts failed jobs back on their queue, their tries counted afresh. */
export const queueRetryCommand = defineCommand({
  name: 'queue:retry',
  description: 'Put failed jobs back on their queue',
  args: [{ name: 'id', description: 'A failed job as queue:failed lists it (default:12), or all', required: true }],
  flags: { ...connectionFlag, ...queueFlag },
  examples: ['kiln queue:retry default:12', 'kiln queue:retry all', 'kiln queue:retry all --queue=mail'],
  async run({ app, args, flags, info }) {
    const driver = redisConnection(app, flags.connection as string | undefined)
    const given = args[0]!
    if (given === 'all') {
      let count = 0
      for (const name of await queueNames(driver, flags.queue)) {
        for (const job of await (await driver.bullQueue<BullQueue>(name)).getFailed()) {
          await job.retry('failed')
          count++
        }
      }
      return info(count ? `Retrying ${count} failed job${count === 1 ? '' : 's'}.` : 'No failed jobs.')
    }
    const at = given.lastIndexOf(':')
    const name = at > 0 ? given.slice(0, at) : ((flags.queue as string | undefined) ?? 'default')
    const id = at > 0 ? given.slice(at + 1) : given
    const job = await (await driver.bullQueue<BullQueue>(name)).getJob(id)
    if (!job || !(await job.isFailed())) throw new CommandError(`No failed job ${name}:${id}. Run \`kiln queue:failed\` for their ids.`)
    await job.retry('failed')
    info(`Retrying ${name}:${id} (${job.name}).`)
  },
})

/** `kiln queue:flush`: deletes every failed job (or one queue's). */
export const queueFlushCommand = defineCommand({
  name: 'queue:flush',
  description: 'Delete the failed jobs',
  flags: { ...connectionFlag, ...queueFlag },
  destructive: 'deletes the failed jobs',
  examples: ['kiln queue:flush', 'kiln queue:flush --queue=mail'],
  async run({ app, flags, info }) {
    const driver = redisConnection(app, flags.connection as string | undefined)
    let count = 0
    for (const name of await queueNames(driver, flags.queue)) count += (await (await driver.bullQueue<BullQueue>(name)).clean(0, 0, 'failed')).length
    info(count ? `Deleted ${count} failed job${count === 1 ? '' : 's'}.` : 'No failed jobs.')
  },
})

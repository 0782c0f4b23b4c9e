import { CommandError, defineCommand } from '../cli/define-command.ts'
import { waitForShutdownSignal } from '../cli/shutdown-signal.ts'
import { RedisQueue } from './redis-driver.ts'

/**
 * `kiln queue:work --connection=redis --queue=default,mail`: works queued
 * jobs until SIGINT/SIGTERM, then finishes the jobs in hand and exits.
 */
export const queueWorkCommand = defineCommand({
  name: 'queue:work',
  description: 'Work jobs from a queue connection',
  longRunning: true,
  examples: ['kiln queue:work', 'kiln queue:work --connection=redis --queue=default,mail --concurrency=4'],
  flags: {
    connection: { type: 'string', description: 'The connection (default: config/queue.ts default)' },
    queue: { type: 'string', description: 'Comma-separated queue names', default: 'default' },
    concurrency: { type: 'number', description: 'Jobs at once per queue', default: 1 },
  },
  async run({ app, flags, info }) {
    const manager = app.service('queue')
    const driver = manager.connections.connection(flags.connection as string | undefined)
    if (!(driver instanceof RedisQueue))
      throw new CommandError('queue:work needs a connection with an external queue (driver "redis"); memory and sync queues run in the app process.')
    const queues = String(flags.queue)
      .split(',')
      .map((q) => q.trim())
      .filter(Boolean)
    await driver.work(queues, { concurrency: Number(flags.concurrency) })
    // Listening before the line that says Ctrl+C works: a signal sent on reading it must find the handler.
    const stopped = waitForShutdownSignal()
    info(`Working ${queues.join(', ')}. Press Ctrl+C to stop.`)
    await stopped
    await app.close()
    return 0
  },
})

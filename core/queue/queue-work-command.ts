import { CommandError, defineCommand } from '../cli/define-command.ts'
import { waitForShutdownSignal } from '../cli/shutdown-signal.ts'
import type { Application } from '../application/application.ts'
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
  async run({ app, flags, info, warn }) {
    const manager = app.service('queue')
    const driver = manager.connections.connection(flags.connection as string | undefined)
    if (!(driver instanceof RedisQueue))
      throw new CommandError('queue:work needs a connection with an external queue (driver "redis"); memory and sync queues run in the app process.')
    const queues = String(flags.queue)
      .split(',')
      .map((q) => q.trim())
      .filter(Boolean)
    warnOfLocalState(app, warn)
    await driver.work(queues, { concurrency: Number(flags.concurrency) })
    // Listening before the line that says Ctrl+C works: a signal sent on reading it must find the handler.
    const stopped = waitForShutdownSignal()
    info(`Working ${queues.join(', ')}. Press Ctrl+C to stop.`)
    await stopped
    await app.close()
    return 0
  },
})

/**
 * A worker is a process of its own: what its jobs write to state kept in
 * one process (a memory cache, a token cache without Redis, broadcasting on
 * the in-process socket server without its Redis scaling) never reaches the
 * processes that serve requests. Said once as it starts, not refused: many
 * jobs touch none of it.
 */
function warnOfLocalState(app: Pick<Application, 'hasService' | 'service'>, warn: (message: string) => void): void {
  if (!app.hasService('processState')) return
  const local = app.service('processState').local()
  if (local.length === 0) return
  warn(
    [
      "This worker is a process of its own, and these are kept in each process: what its jobs do to them, the app's other processes never see.",
      ...local.map((state) => `  - ${state.what}: ${state.setting}`),
    ].join('\n'),
  )
}

import type { Application } from '../application/application.ts'
import { definePlugin } from '../application/define-plugin.ts'
import { appSlug } from '../support/app-slug.ts'
import { requireDriverPackages } from '../support/optional-package.ts'
import type { JobClass } from './job.ts'
import { queueConfigSchema } from './queue-config.ts'
import { QueueManager } from './queue-manager.ts'
import { queueWorkCommand } from './queue-work-command.ts'
import { redisUrl } from '../support/redis-health.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    queue: QueueManager
  }
}

/** The kernel's queue provider: `app.service('queue')`, connections `sync`, `memory` (default) and `redis`, and `queue:work`. */
export const queueProvider = definePlugin({
  name: 'kiln:queue',
  config: { file: 'queue', schema: queueConfigSchema },
  prepare(app) {
    const defaults = {
      sync: { driver: 'sync' },
      memory: { driver: 'memory' },
      redis: { driver: 'redis', url: redisUrl(app.env), prefix: appSlug(app.config.get('app.name')) },
    }
    app.config.set('queue.connections', { ...defaults, ...app.config.get<Record<string, unknown>>('queue.connections', {}) })
    if (!app.config.get('queue.default')) app.config.set('queue.default', app.env.unchecked.get('QUEUE_CONNECTION', 'memory'))
    const active = app.config.get<string>('queue.default')
    requireDriverPackages(`queue.${app.config.get<string>(`queue.connections.${active}.driver`, '')}`, `The queue connection "${active}"`, app.root)
    const connection = app.config.get<{ driver?: string; url?: string }>(`queue.connections.${active}`, {})
    // Jobs pushed while the queue's Redis is down are lost to the request: readiness names it.
    if (connection.driver === 'redis') app.service('health').redis('queue', redisUrl(app.env, connection.url))
  },
  services: {
    queue: { make: queueWithJobs, token: QueueManager, close: closeQueue },
  },
  register(app) {
    app.commands.register(queueWorkCommand)
    // Loaded when run or listed: every process registers them, few run them.
    const failedJobs = () => import('./failed-job-commands.ts')
    app.commands.registerLazy('queue:failed', async () => (await failedJobs()).queueFailedCommand)
    app.commands.registerLazy('queue:retry', async () => (await failedJobs()).queueRetryCommand)
    app.commands.registerLazy('queue:flush', async () => (await failedJobs()).queueFlushCommand)
  },
})

/** The queue, knowing the jobs of config/queue.ts `jobs`. */
function queueWithJobs(app: Application): QueueManager {
  const queue = new QueueManager(app)
  queue.register(...app.config.get<JobClass[]>('queue.jobs', []))
  return queue
}

/** Pushes what is still buffered, then closes the connections. */
async function closeQueue(queue: QueueManager): Promise<void> {
  await queue.flush().catch(() => {})
  await queue.close()
}

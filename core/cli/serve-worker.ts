import type { Application } from '../application/application.ts'
import { CommandError } from './define-command.ts'
import { explainListenError } from './serve-messages.ts'
import { STOP_MESSAGE, type WorkerMessage } from './worker-pool.ts'

/**
 * `kiln serve --workers` in a worker (a `node:cluster` process its primary
 * started): listens on the shared port, tells the primary it serves, and
 * drains when the primary says so (or on its own SIGTERM, which a service
 * manager may send to every process of the group); resolves with the exit
 * code. SIGINT is left to the primary: Ctrl-C reaches every process, and the
 * primary tells each worker to drain. A port in use is reported to the
 * primary, which prints it once.
 *
 * @example
 * ```ts
 * if (cluster.isWorker) return serveAsWorker(app, { port: 3000, host: '127.0.0.1' })
 * ```
 */
export async function serveAsWorker(app: Application, where: { port: number; host: string }): Promise<number> {
  const send = (message: WorkerMessage) => {
    if (process.connected) process.send!(message)
  }
  const stopped = new Promise<void>((resolve) => {
    process.on('message', (message: { kiln?: string } | undefined) => {
      if (message?.kiln === STOP_MESSAGE.kiln) resolve()
    })
    // Kept after the first: a second signal must not cut the drain short.
    process.on('SIGTERM', () => resolve())
    process.on('SIGINT', () => {})
  })
  send({ kiln: 'serve:starting' })
  let server: Awaited<ReturnType<Application['listen']>>
  try {
    server = await app.listen(where)
  } catch (error) {
    const explained = explainListenError(error, { ...where, command: 'kiln serve' })
    if (!(explained instanceof CommandError)) throw error
    // Every worker would meet the same: the primary says it once and stops.
    send({ kiln: 'serve:fatal', message: explained.message })
    return 1
  }
  send({ kiln: 'serve:ready', url: `${server.url}${app.urls.basePath || '/'}` })
  await stopped
  await app.close()
  return 0
}

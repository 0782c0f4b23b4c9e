import { join } from 'node:path'
import type { Application } from '../application/application.ts'
import { unsharedStateError } from '../application/process-state.ts'
import { Env } from '../config/env.ts'
import { kilnPackageRoot } from '../support/package-root.ts'
import { CommandError } from './define-command.ts'
import { servingLine } from './serve-messages.ts'
import { waitForShutdownSignal } from './shutdown-signal.ts'
import { runWorkerPool } from './worker-pool.ts'

/**
 * What {@link serveWithWorkers} needs of the command.
 *
 * @example
 * ```ts
 * const options: PrimaryOptions = { workers: 2, port: 3000, host: '127.0.0.1', info, warn }
 * ```
 */
export interface PrimaryOptions {
  workers: number
  port: number
  host: string
  info(line: string): void
  warn(line: string): void
}

/**
 * `kiln serve --workers=N` (N > 1) in the primary process, which serves
 * nothing itself: refuses state that the workers could not share (the
 * process-state registry, every piece named in one message), closes the
 * app it booted to check that, then runs the workers (`bin/kiln.js serve`
 * again, each booting the app and listening on the shared port) until
 * SIGINT or SIGTERM drains them. Prints one serving line once they all
 * serve; resolves with the exit code.
 *
 * @example
 * ```ts
 * return serveWithWorkers(app, { workers: 4, port: 3000, host: '127.0.0.1', info, warn })
 * ```
 */
export async function serveWithWorkers(app: Application, options: PrimaryOptions): Promise<number> {
  const local = app.service('processState').local()
  if (local.length) throw new CommandError(`kiln serve --workers=${options.workers} refuses to start. ${unsharedStateError(local, options.workers).message}`)
  const name = app.config.get<string>('app.name')
  const env = { ...workerEnvironment(app), KILN_ROOT: app.root, KILN_SERVE_WORKER: '1' }
  // Listening before the first worker starts: Ctrl-C during their boot must find the handler.
  const stopped = waitForShutdownSignal()
  // Each worker boots its own app; this one was only booted to be checked, and must not hold connections meanwhile.
  await app.close()
  return runWorkerPool({
    workers: options.workers,
    exec: join(kilnPackageRoot(), 'bin/kiln.js'),
    args: ['serve', `--port=${options.port}`, `--host=${options.host}`, `--workers=${options.workers}`],
    env,
    onServing: (url) => options.info(servingLine(name, url, options.workers)),
    log: options.warn,
    stopped: stopped.then(() => options.info('Shutting down...')),
  })
}

/**
 * The variables this app was given that a worker would not find by itself
 * in `.env` and the environment: those of `--env=<name>`, or of a caller of
 * `runCli` (`CliIo.env`). Each worker gets them, so that it boots the same app.
 */
function workerEnvironment(app: Application): Record<string, string> {
  const own = Env.load(app.root).raw()
  const given: Record<string, string> = {}
  for (const [key, value] of Object.entries(app.env.raw())) if (value !== undefined && own[key] !== value) given[key] = value
  return given
}

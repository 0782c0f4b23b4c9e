import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import { CommandError, defineCommand } from '../define-command.ts'
import { explainListenError, servingLine } from '../serve-messages.ts'
import { waitForShutdownSignal } from '../shutdown-signal.ts'

/**
 * `kiln serve --port 3000 --host 127.0.0.1`: serves the app (HTTP and
 * websocket routes) until SIGINT/SIGTERM, then stops accepting, lets
 * in-flight requests finish and closes the app. A promise rejection that
 * nothing handles is logged, not fatal. A port in use exits 1 with a
 * message that suggests `--port`. `--workers=N` (or `auto`, one per core)
 * runs N processes on the same port (`serve-primary.ts`), each of them this
 * command again (`serve-worker.ts`).
 */
export const serveCommand = defineCommand({
  name: 'serve',
  description: 'Serve the application over HTTP',
  flags: {
    port: { type: 'number', description: 'Port to listen on (PORT, else 3000; 0 picks a free one)', short: 'p' },
    host: { type: 'string', description: 'Address to bind (HOST, else 127.0.0.1)' },
    workers: { type: 'string', description: 'Processes serving the same port: a number, or auto for one per core (default 1)' },
  },
  longRunning: true,
  examples: ['kiln serve', 'kiln serve --port=8080 --host=0.0.0.0', 'kiln serve -p 0   # any free port', 'kiln serve --workers=auto'],
  async run({ app, flags, info, warn }) {
    const workers = workerCount(flags.workers as string | undefined)
    const port = flags.port !== undefined ? Number(flags.port) : app.env.unchecked.number('PORT', 3000)
    const host = (flags.host as string | undefined) ?? app.env.unchecked.get('HOST', '127.0.0.1')
    // A worker of our own primary, not of another cluster (pm2's cluster mode runs `kiln serve` as its workers).
    const ownWorker = cluster.isWorker && process.env.KILN_SERVE_WORKER === '1'
    if (workers > 1 && !ownWorker) {
      if (cluster.isWorker)
        throw new CommandError(
          'kiln serve --workers cannot start workers from a node:cluster worker (pm2 cluster mode?): let that cluster start the processes, without --workers.',
        )
      return (await import('../serve-primary.ts')).serveWithWorkers(app, { workers, port, host, info, warn })
    }
    // Node ends the process on a rejection nobody handles (a route that forgot an `await`): every request in flight
    // would fail with it. The server logs it, with its stack, and keeps serving.
    const onRejection = (reason: unknown) =>
      app.logger.error(
        { err: reason instanceof Error ? { message: reason.message, stack: reason.stack } : String(reason) },
        'A promise was rejected and nothing awaited it; the server keeps serving',
      )
    process.on('unhandledRejection', onRejection)
    try {
      if (ownWorker) return await (await import('../serve-worker.ts')).serveAsWorker(app, { port, host })
      // A taken port is a sentence with the way out (--port), exit code 1, no stack.
      const server = await app.listen({ port, host }).catch((error: unknown) => {
        throw explainListenError(error, { port, host, command: 'kiln serve' })
      })
      // Listening before the startup line: a supervisor that stops the server on reading it must find the handler.
      const stopped = waitForShutdownSignal()
      info(servingLine(app.config.get<string>('app.name'), `${server.url}${app.urls.basePath || '/'}`))
      await stopped
      info('Shutting down...')
      await app.close()
      return 0
    } finally {
      process.off('unhandledRejection', onRejection)
    }
  },
})

/** `--workers`: a whole number from 1, or `auto` (the cores Node may use); anything else is the user's mistake. */
function workerCount(value: string | undefined): number {
  if (value === undefined) return 1
  if (value === 'auto') return availableParallelism()
  if (/^\d+$/.test(value) && Number(value) >= 1) return Number(value)
  throw new CommandError(`--workers takes a number of processes (1 or more) or "auto" (one per core), got "${value}". Usage: kiln serve --workers=4`)
}

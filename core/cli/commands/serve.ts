import { defineCommand } from '../define-command.ts'
import { waitForShutdownSignal } from '../shutdown-signal.ts'

/**
 * `kiln serve --port 3000 --host 127.0.0.1`: serves the app (HTTP and
 * websocket routes) until SIGINT/SIGTERM, then stops accepting, lets
 * in-flight requests finish and closes the app. A promise rejection that
 * nothing handles is logged, not fatal.
 */
export const serveCommand = defineCommand({
  name: 'serve',
  description: 'Serve the application over HTTP',
  flags: {
    port: { type: 'number', description: 'Port to listen on (PORT, else 3000; 0 picks a free one)', short: 'p' },
    host: { type: 'string', description: 'Address to bind (HOST, else 127.0.0.1)' },
  },
  longRunning: true,
  examples: ['kiln serve', 'kiln serve --port=8080 --host=0.0.0.0', 'kiln serve -p 0   # any free port'],
  async run({ app, flags, info }) {
    const port = flags.port !== undefined ? Number(flags.port) : app.env.number('PORT', 3000)
    const host = (flags.host as string | undefined) ?? app.env.get('HOST', '127.0.0.1')
    // Node ends the process on a rejection nobody handles (a route that forgot an `await`): every request in flight
    // would fail with it. The server logs it, with its stack, and keeps serving.
    const onRejection = (reason: unknown) =>
      app.logger.error(
        { err: reason instanceof Error ? { message: reason.message, stack: reason.stack } : String(reason) },
        'A promise was rejected and nothing awaited it; the server keeps serving',
      )
    process.on('unhandledRejection', onRejection)
    const server = await app.listen({ port, host })
    info(`Kiln is serving ${app.config.get('app.name')} on ${server.url}${app.urls.basePath || '/'}`)
    await waitForShutdownSignal()
    info('Shutting down...')
    await app.close()
    process.off('unhandledRejection', onRejection)
    return 0
  },
})

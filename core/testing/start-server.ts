import type { Application } from '../application/application.ts'

/**
 * Starts the app on a free loopback port, for tests that need a real socket
 * (fetch, websockets, Chromium). Closed by `close()` or with the app.
 *
 * @example
 * ```ts
 * const server = await startServer(app)
 * await fetch(`${server.url}/health`)
 * await server.close()
 * ```
 */
export async function startServer(app: Application): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: server.url, port: server.port, close: () => server.close() }
}

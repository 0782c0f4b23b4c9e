import { spawn, type ChildProcess } from 'node:child_process'
import { connect, createServer, type Socket } from 'node:net'

/**
 * A free TCP port on loopback, for a Redis server a test owns.
 *
 * @example
 * ```ts
 * const port = await freePort()
 * ```
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** A redis-server child process the test can stop and start again on the same port. */
export interface RedisServer {
  /** Kills it (SIGKILL: an outage, not a shutdown) and waits for the exit. */
  stop(): Promise<void>
  /** Starts it again and waits until it accepts connections. */
  start(): Promise<void>
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, like a hung host. */
  pause(): void
  /** Lets a paused server run again (SIGCONT). */
  resume(): void
}

/**
 * Starts `redis-server` on `port` with no persistence (and `requirepass`
 * when given), killed in the test's teardown whatever happens.
 *
 * @example
 * ```ts
 * const redis = await redisServer(t, await freePort())
 * await redis.stop()
 * await redis.start()
 * ```
 */
export async function redisServer(t: { teardown(fn: () => unknown): void }, port: number, password?: string): Promise<RedisServer> {
  let child: ChildProcess | undefined
  t.teardown(() => {
    child?.kill('SIGCONT')
    child?.kill('SIGKILL')
  })
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(password ? ['--requirepass', password] : [])]
  const server: RedisServer = {
    start: () =>
      new Promise((resolve, reject) => {
        const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'ignore'] })
        child = started
        let output = ''
        started.stdout!.on('data', (chunk) => {
          output += String(chunk)
          if (output.includes('Ready to accept connections')) resolve()
        })
        started.on('error', reject)
        started.on('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${output.slice(-500)}`)))
      }),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    stop: async () => {
      const running = child
      if (!running || running.exitCode !== null || running.signalCode !== null) return
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGKILL')
      await exited
    },
  }
  await server.start()
  return server
}

/** A TCP link to a Redis server that a test can cut, as a network partition would, while Redis keeps its data. */
export interface RedisLink {
  /** `redis://127.0.0.1:<port>` of the link. */
  url: string
  /** Drops every connection through the link and refuses new ones until {@link RedisLink.restore}. */
  cut(): void
  restore(): void
}

/**
 * A TCP proxy in front of a Redis port, for one process of a cluster: cutting
 * it isolates that process while the others (connected directly) carry on
 * and Redis keeps every key.
 *
 * @example
 * ```ts
 * const link = await redisLink(t, redisPort)
 * const app = await rtApp(t, { scaling: { enabled: true, url: link.url } })
 * link.cut()
 * link.restore()
 * ```
 */
export async function redisLink(t: { teardown(fn: () => unknown): void }, redisPort: number): Promise<RedisLink> {
  let open = true
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    track(client)
    if (!open) return client.destroy()
    const upstream = connect(redisPort, '127.0.0.1')
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  const { port } = server.address() as { port: number }
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () => {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    restore: () => {
      open = true
    },
  }
}

/**
 * Polls `check` until it is true or `ms` pass; returns the last answer.
 * For waiting on deliveries and reconnects, never for asserting timings.
 *
 * @example
 * ```ts
 * t.true(await waitFor(() => seen.length === 1))
 * ```
 */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms
  for (;;) {
    if (await check()) return true
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('./ws-clients.ts', import.meta.url))

/** A forked socket-client process (bench/ws-clients.ts). */
export interface SocketClients {
  child: ChildProcess
  /** Resolves when every socket received event `id`. */
  done(id: number): Promise<void>
  stats(): Promise<{ p50: number; p99: number; deliveries: number }>
  exit(): Promise<void>
}

/**
 * Opens `count` sockets to `url` from a separate process; `rt` mode speaks
 * the native protocol and subscribes to `bench`.
 *
 * @example
 * ```ts
 * const clients = await socketClients('ws://127.0.0.1:3000/broadcasting/socket', 5000, 'rt')
 * ```
 */
export async function socketClients(url: string, count: number, mode: 'rt' | 'raw'): Promise<SocketClients> {
  const child = fork(script, [url, String(count), mode], { execArgv: ['--conditions=kiln-source', '--import=tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const waiting = new Map<number, () => void>()
  const early = new Set<number>()
  let onStats: ((stats: { p50: number; p99: number; deliveries: number }) => void) | undefined
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`socket clients exited with ${code}`)))
    child.on('message', (message: { type: string; id?: number; p50?: number; p99?: number; deliveries?: number }) => {
      if (message.type === 'ready') resolve()
      else if (message.type === 'done') {
        const wake = waiting.get(message.id!)
        if (wake) wake()
        else early.add(message.id!)
      } else if (message.type === 'stats') onStats?.(message as { p50: number; p99: number; deliveries: number })
    })
  })
  return {
    child,
    done: (id) =>
      early.delete(id)
        ? Promise.resolve()
        : new Promise((resolve) =>
            waiting.set(id, () => {
              waiting.delete(id)
              resolve()
            }),
          ),
    stats: () =>
      new Promise((resolve) => {
        onStats = resolve
        child.send({ type: 'stats' })
      }),
    exit: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.send({ type: 'exit' })
      }),
  }
}

/** The wall clock both processes share, in ms with sub-ms precision. @example `stampNow()` */
export const stampNow = () => performance.timeOrigin + performance.now()

/**
 * Sends `events` events one after another (each waits for full delivery) and
 * returns deliveries per second and latency percentiles.
 *
 * @example
 * ```ts
 * const result = await fanOut(clients, 5000, 30, (payload) => adapter.publish('bench', JSON.stringify(payload)))
 * ```
 */
export async function fanOut(
  clients: SocketClients[],
  sockets: number,
  events: number,
  send: (payload: { id: number; sent: number; pad: string }) => unknown,
  firstId = 0,
): Promise<{ perSecond: number; p50: number; p99: number }> {
  const pad = 'x'.repeat(100)
  const started = stampNow()
  for (let id = firstId; id < firstId + events; id++) {
    const delivered = Promise.all(clients.map((c) => c.done(id)))
    await send({ id, sent: stampNow(), pad })
    await delivered
  }
  const seconds = (stampNow() - started) / 1000
  const stats = await Promise.all(clients.map((c) => c.stats()))
  return { perSecond: Math.round((sockets * events) / seconds), p50: Math.max(...stats.map((s) => s.p50)), p99: Math.max(...stats.map((s) => s.p99)) }
}

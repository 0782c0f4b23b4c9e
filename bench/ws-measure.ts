import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('./ws-clients.ts', import.meta.url))

/** What a client process measured since the last call: latency percentiles and counts per bucket. */
export interface Stats {
  p50: number
  p99: number
  deliveries: number
  /** Deliveries per latency bucket: ≤5, ≤10, ≤20, ≤30, ≤40, ≤50, ≤75, ≤100 ms, more. */
  histogram: number[]
}

/** The upper edges of {@link Stats.histogram}'s buckets, as labels. */
export const HISTOGRAM_LABELS = ['≤5', '≤10', '≤20', '≤30', '≤40', '≤50', '≤75', '≤100', '>100']

/**
 * One line per bucket with a bar: where a fan-out's latency tail sits.
 *
 * @example
 * ```ts
 * console.log(histogramLines(result.histogram).join('\n'))
 * ```
 */
export function histogramLines(histogram: number[]): string[] {
  const total = histogram.reduce((sum, n) => sum + n, 0) || 1
  return histogram.map(
    (n, i) => `    ${HISTOGRAM_LABELS[i]!.padStart(5)} ms ${((100 * n) / total).toFixed(1).padStart(5)}% ${'#'.repeat(Math.round((40 * n) / total))}`,
  )
}

/** A forked socket-client process (bench/ws-clients.ts). */
export interface SocketClients {
  child: ChildProcess
  /** Resolves when every socket received event `id`. */
  done(id: number): Promise<void>
  stats(): Promise<Stats>
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
  const child = fork(script, [url, String(count), mode], {
    execArgv: ['--conditions=kiln-source', '--import=tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const waiting = new Map<number, () => void>()
  const early = new Set<number>()
  let onStats: ((stats: Stats) => void) | undefined
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`socket clients exited with ${code}`)))
    child.on('message', (message: { type: string; id?: number; p50?: number; p99?: number; deliveries?: number }) => {
      if (message.type === 'ready') resolve()
      else if (message.type === 'done') {
        const wake = waiting.get(message.id!)
        if (wake) wake()
        else early.add(message.id!)
      } else if (message.type === 'stats') onStats?.(message as unknown as Stats)
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
): Promise<{ perSecond: number; p50: number; p99: number; histogram: number[] }> {
  const pad = 'x'.repeat(100)
  const started = stampNow()
  for (let id = firstId; id < firstId + events; id++) {
    const delivered = Promise.all(clients.map((c) => c.done(id)))
    await send({ id, sent: stampNow(), pad })
    await delivered
  }
  const seconds = (stampNow() - started) / 1000
  const stats = await Promise.all(clients.map((c) => c.stats()))
  const histogram = stats[0]!.histogram.map((_, i) => stats.reduce((sum, s) => sum + s.histogram[i]!, 0))
  return {
    perSecond: Math.round((sockets * events) / seconds),
    p50: Math.max(...stats.map((s) => s.p50)),
    p99: Math.max(...stats.map((s) => s.p99)),
    histogram,
  }
}

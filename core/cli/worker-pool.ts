import cluster, { type Worker } from 'node:cluster'

/**
 * What a worker of `kiln serve --workers` tells its primary: it has booted
 * and takes orders (`starting`), it listens (`ready`), or it cannot listen
 * and no restart would help (`fatal`, a port in use).
 *
 * @example
 * ```ts
 * process.send!({ kiln: 'serve:ready', url: 'http://127.0.0.1:3000/' } satisfies WorkerMessage)
 * ```
 */
export type WorkerMessage = { kiln: 'serve:starting' } | { kiln: 'serve:ready'; url: string } | { kiln: 'serve:fatal'; message: string }

/**
 * What the primary sends a worker to drain it: stop accepting, finish the requests in flight, exit.
 *
 * @example
 * ```ts
 * worker.send(STOP_MESSAGE)
 * ```
 */
export const STOP_MESSAGE = { kiln: 'serve:stop' } as const

/**
 * Options for {@link runWorkerPool}.
 *
 * @example
 * ```ts
 * const options: WorkerPoolOptions = { workers: 2, exec: BIN, args: ['serve', '--port=3000'], env: {}, onServing: info, log: warn, stopped }
 * ```
 */
export interface WorkerPoolOptions {
  workers: number
  /** The script each worker runs (`bin/kiln.js`) and its arguments (`serve --port=3000 ...`). */
  exec: string
  args: string[]
  /** Variables each worker gets on top of this process's. */
  env: Record<string, string>
  /** Called once, when as many workers as asked for serve, with the address the first one reported. */
  onServing(url: string): void
  /** The primary's own lines: a worker restarted, the crash loop, a fatal error. */
  log(line: string): void
  /** Resolves when the pool must drain and stop (the primary's SIGINT or SIGTERM). */
  stopped: Promise<unknown>
  /** Workers in a row that may stop before they serve before the pool gives up; default 3. */
  maxEarlyExits?: number
  /** How long a draining worker may take before it is killed, in ms; default 15,000. */
  drainTimeoutMs?: number
}

interface WorkerState {
  /** It said `starting`: it has its stop handler, so a stop message reaches it. */
  starting: boolean
  ready: boolean
}

/**
 * Runs `workers` processes on `node:cluster` and keeps them running until
 * `stopped` resolves; resolves with the primary's exit code. A worker that
 * stops is replaced, unless workers keep stopping before they serve
 * (`maxEarlyExits` in a row: the app cannot start, exit code 1). Stopping
 * sends each worker the stop message (a worker still booting gets SIGTERM)
 * and waits for all of them to exit: 0, or 1 when one had to be killed.
 *
 * @example
 * ```ts
 * const code = await runWorkerPool({ workers: 2, exec: BIN, args: ['serve'], env: {}, onServing: info, log: warn, stopped: waitForShutdownSignal() })
 * ```
 */
export function runWorkerPool(options: WorkerPoolOptions): Promise<number> {
  const maxEarlyExits = options.maxEarlyExits ?? 3
  const drainTimeoutMs = options.drainTimeoutMs ?? 15_000
  cluster.setupPrimary({ exec: options.exec, args: options.args })
  const live = new Map<Worker, WorkerState>()
  let earlyExits = 0
  let announced = false
  let stopping = false
  let exitCode = 0

  return new Promise((resolve) => {
    const finishIfEmpty = () => {
      if (stopping && live.size === 0) resolve(exitCode)
    }

    const drain = (worker: Worker, state: WorkerState) => {
      if (state.starting) {
        // The channel may close at any moment as the worker exits; its exit is what the pool waits for.
        if (worker.isConnected()) worker.send(STOP_MESSAGE, () => {})
      } else worker.process.kill('SIGTERM')
      const timer = setTimeout(() => {
        options.log(`Worker ${worker.process.pid} did not stop within ${drainTimeoutMs / 1000} s: killing it.`)
        exitCode = 1
        worker.process.kill('SIGKILL')
      }, drainTimeoutMs)
      worker.once('exit', () => clearTimeout(timer))
    }

    const stop = (code: number) => {
      if (stopping) return
      stopping = true
      exitCode = code
      for (const [worker, state] of live) drain(worker, state)
      finishIfEmpty()
    }

    const start = () => {
      const worker = cluster.fork(options.env)
      const state: WorkerState = { starting: false, ready: false }
      live.set(worker, state)
      worker.on('message', (message: WorkerMessage | undefined) => {
        if (message?.kiln === 'serve:starting') {
          state.starting = true
          // Asked to stop while this one booted: it was sent SIGTERM, which its stop handler may have caught instead.
          if (stopping) drain(worker, state)
        } else if (message?.kiln === 'serve:ready') {
          state.ready = true
          earlyExits = 0
          if (!announced && [...live.values()].filter((s) => s.ready).length >= options.workers) {
            announced = true
            options.onServing(message.url)
          }
        } else if (message?.kiln === 'serve:fatal') {
          if (!stopping) options.log(message.message)
          stop(1)
        }
      })
      worker.once('exit', (code, signal) => {
        live.delete(worker)
        if (stopping) return finishIfEmpty()
        const how = signal ? `signal ${signal}` : `exit code ${code}`
        if (!state.ready && ++earlyExits >= maxEarlyExits) {
          options.log(
            `${earlyExits} workers in a row stopped before they could serve (the last with ${how}): giving up. ` +
              'What each one met is above; `kiln serve` without --workers runs the app in one process.',
          )
          return stop(1)
        }
        options.log(`Worker ${worker.process.pid} stopped (${how}); starting another.`)
        start()
      })
    }

    void options.stopped.then(() => stop(0))
    for (let i = 0; i < options.workers; i++) start()
  })
}

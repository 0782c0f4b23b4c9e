import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('./rt-server-process.ts', import.meta.url))

/** A forked realtime server (bench/rt-server-process.ts). */
export interface ServerProcess {
  url: string
  /** After a full GC: resident set, V8 heap in use, memory outside the heap (bytes), and sockets held. */
  rss(): Promise<{ rss: number; heapUsed: number; external: number; sockets: number }>
  /** CPU time (user + system) the process has used, in µs. */
  cpu(): Promise<number>
  broadcast(payload: Record<string, unknown>): Promise<void>
  exit(): void
}

/**
 * Starts a realtime server process: `kiln` (rt) or `raw` (bare crossws).
 *
 * @example
 * ```ts
 * const server = await serverProcess('kiln', { RT_SCALING: '1' })
 * ```
 */
export function serverProcess(mode: 'kiln' | 'raw', env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = fork(script, [mode], {
    execArgv: ['--conditions=kiln-source', '--import=tsx', '--expose-gc', ...(process.env.RT_NODE_FLAGS ?? '').split(' ').filter(Boolean)],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ask = <T>(message: object, reply: string) =>
    new Promise<T>((resolve) => {
      const listener = (answer: { type: string }) => {
        if (answer.type !== reply) return
        child.off('message', listener)
        resolve(answer as T)
      }
      child.on('message', listener)
      child.send(message)
    })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)))
    child.once('message', (message: { type: string; url: string }) => {
      child.removeAllListeners('exit')
      resolve({
        url: message.url,
        rss: () => ask({ type: 'rss' }, 'rss'),
        cpu: async () => (await ask<{ micros: number }>({ type: 'cpu' }, 'cpu')).micros,
        broadcast: async (payload) => {
          await ask({ type: 'broadcast', payload }, 'sent')
        },
        exit: () => child.kill(),
      })
    })
  })
}

import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server, type Socket } from 'node:net'
import { relative, sep } from 'node:path'
import type { HostMessage } from '../dev/host-message.ts'

/** How `kiln dev` runs its server processes. */
export interface SupervisorOptions {
  /** The program (`process.execPath`) and its arguments (`bin/kiln.js dev`), run with `KILN_DEV_HOST=1`. */
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** How long a stopping server may take after SIGTERM before it gets SIGKILL. */
  graceMs: number
  /** A server process exited on its own (a crash). */
  onUnexpectedExit(code: number | null, signal: NodeJS.Signals | null, restarting: boolean): void
}

interface Host {
  child: ChildProcess
  ready: boolean
  startedAt: number
  exited: Promise<void>
  /** Changes that arrived before it could hear them. */
  pending: string[]
}

// A server that dies this soon after it started is not started again until the next change (it would only die again).
const CRASH_LOOP_MS = 2000
const UNAVAILABLE =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n\r\n' +
  '<!doctype html><meta http-equiv="refresh" content="1"><title>503</title><p>The server stopped: see the terminal of <code>kiln dev</code>. ' +
  'This page retries every second.</p>'

/**
 * The listening side of `kiln dev`. It owns the listening socket and hands
 * every connection it accepts to the current server process (over the IPC
 * channel, before reading a byte of it), so the port stays open while a
 * server boots or restarts: connections wait in a queue instead of being
 * refused. A restart starts the new process first, sends it the new
 * connections once it is ready, then stops the old one gracefully.
 *
 * @example
 * ```ts
 * const servers = new DevSupervisor({ command: process.execPath, args: [bin, 'dev'], cwd, env: process.env, graceMs: 5000, onUnexpectedExit: () => {} })
 * const port = await servers.listen(3000, '127.0.0.1')
 * servers.start()
 * servers.changed(['resources/views/home.hbs'])
 * await servers.restart()
 * await servers.stop()
 * ```
 */
export class DevSupervisor {
  private listener?: Server
  private readonly hosts = new Set<Host>()
  /** The newest server process: the one that gets connections once it is ready. */
  private newest?: Host
  /** The process that gets connections now. */
  private active?: Host
  private queue: Socket[] = []
  private crashed = false
  private stopping = false

  constructor(private readonly options: SupervisorOptions) {}

  /** True while a server process runs. @example `if (!servers.running) servers.start()` */
  get running(): boolean {
    return this.hosts.size > 0
  }

  /**
   * Opens the listening socket (port 0 picks a free one) and resolves to its port.
   *
   * @example
   * ```ts
   * const port = await servers.listen(0, '127.0.0.1')
   * ```
   */
  listen(port: number, host: string): Promise<number> {
    const listener = createServer({ pauseOnConnect: true }, (socket) => this.deliver(socket))
    this.listener = listener
    return new Promise((resolve, reject) => {
      listener.once('error', reject)
      listener.listen(port, host, () => {
        listener.off('error', reject)
        resolve((listener.address() as { port: number }).port)
      })
    })
  }

  /** Starts a server process; it gets the connections once it is ready. @example `servers.start()` */
  start(): void {
    this.crashed = false
    const child = spawn(this.options.command, this.options.args, {
      cwd: this.options.cwd,
      env: { ...this.options.env, KILN_DEV_HOST: '1' },
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    })
    let onExit!: () => void
    const host: Host = { child, ready: false, startedAt: Date.now(), exited: new Promise((resolve) => (onExit = resolve)), pending: [] }
    this.hosts.add(host)
    this.newest = host
    child.on('message', (message: HostMessage) => {
      if (message?.type !== 'kiln-dev:ready' || host !== this.newest) return
      host.ready = true
      const previous = this.active
      this.active = host
      if (host.pending.length > 0) this.send(host, { type: 'kiln-dev:change', files: host.pending.splice(0) })
      for (const socket of this.queue.splice(0)) this.deliver(socket)
      if (previous && previous !== host) void this.stopHost(previous)
    })
    const gone = (code: number | null, signal: NodeJS.Signals | null) => {
      if (!this.hosts.delete(host)) return
      if (this.active === host) this.active = undefined
      const expected = child.killed || this.stopping
      if (!expected && host === this.newest) {
        const restarting = Date.now() - host.startedAt > CRASH_LOOP_MS
        this.options.onUnexpectedExit(code, signal, restarting)
        if (restarting) this.start()
        else {
          this.crashed = true
          for (const socket of this.queue.splice(0)) this.unavailable(socket)
        }
      }
      onExit()
    }
    child.once('exit', gone)
    // A spawn failure (the program is missing) emits only `error`.
    child.once('error', () => gone(1, null))
  }

  /**
   * Tells the current server process which files changed (it reloads views
   * or code itself); starts one if none runs.
   *
   * @example
   * ```ts
   * servers.changed(['routes/web.ts'])
   * ```
   */
  changed(files: string[]): void {
    const host = this.newest
    if (!host || !this.hosts.has(host)) return this.start()
    if (host.ready) this.send(host, { type: 'kiln-dev:change', files })
    else host.pending.push(...files)
  }

  /**
   * A new server process in place of the current one: the old one serves
   * until the new one is ready, then stops gracefully.
   *
   * @example
   * ```ts
   * await servers.restart() // after .env changed
   * ```
   */
  restart(): void {
    this.start()
  }

  /**
   * Closes the listening socket and stops every server process (SIGTERM,
   * then SIGKILL after the grace period).
   *
   * @example
   * ```ts
   * await servers.stop()
   * ```
   */
  async stop(): Promise<void> {
    this.stopping = true
    this.listener?.close()
    for (const socket of this.queue.splice(0)) socket.destroy()
    await Promise.all([...this.hosts].map((host) => this.stopHost(host)))
  }

  private deliver(socket: Socket): void {
    const host = this.active
    if (this.stopping) socket.destroy()
    else if (host?.ready && host.child.connected)
      host.child.send({ type: 'kiln-dev:connection' } satisfies HostMessage, socket, (error) => error && this.queue.push(socket))
    else if (this.crashed) this.unavailable(socket)
    else {
      // Waits for the next server; a client that gives up meanwhile leaves the queue.
      this.queue.push(socket)
      socket.once('close', () => (this.queue = this.queue.filter((queued) => queued !== socket)))
    }
  }

  private unavailable(socket: Socket): void {
    socket.on('error', () => {})
    socket.resume()
    socket.end(UNAVAILABLE)
  }

  private send(host: Host, message: HostMessage): void {
    if (host.child.connected) host.child.send(message)
  }

  private async stopHost(host: Host): Promise<void> {
    if (!this.hosts.has(host)) return
    host.child.kill('SIGTERM')
    const force = setTimeout(() => host.child.kill('SIGKILL'), this.options.graceMs)
    await host.exited
    clearTimeout(force)
  }
}

/**
 * The top-level entries of an app that `kiln dev` watches.
 *
 * @example
 * ```ts
 * console.log(`Watching ${WATCHED_ENTRIES.join(', ')}`)
 * ```
 */
export const WATCHED_ENTRIES = ['app', 'config', 'routes', 'resources', 'database', '.env', 'package.json', 'tsconfig.json']

// Database files change on every write (a watched SQLite file would restart the server on each request); editors
// write swap and backup files beside the ones they edit.
const IGNORED_FILES = /(\.sqlite\d?|\.db)(-journal|-wal|-shm)?$|\.sw[a-p]$|~$|(^|[\\/])\.#|(^|[\\/])\.DS_Store$/

/**
 * Whether a path under the app root is one `kiln dev` acts on: inside
 * `app/`, `config/`, `routes/`, `resources/`, `database/`, or the `.env`,
 * `package.json` or `tsconfig.json` file, and not a database file, an editor's temporary file or
 * anything under `node_modules/`. The root itself is watched (so these
 * entries may appear later).
 *
 * @example
 * ```ts
 * isWatched('/srv/app', '/srv/app/routes/web.ts') // true
 * isWatched('/srv/app', '/srv/app/storage/logs/kiln.log') // false
 * ```
 */
export function isWatched(root: string, path: string): boolean {
  const rel = relative(root, path)
  if (rel === '') return true
  if (rel.startsWith('..')) return false
  const parts = rel.split(sep)
  if (!WATCHED_ENTRIES.includes(parts[0]!) || parts.includes('node_modules')) return false
  return !IGNORED_FILES.test(rel)
}

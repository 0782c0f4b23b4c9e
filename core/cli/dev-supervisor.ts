import { spawn, type ChildProcess } from 'node:child_process'
import { relative, sep } from 'node:path'

/** How `kiln dev` runs one server process. */
export interface SupervisorOptions {
  /** The program (`process.execPath`) and its arguments (`bin/kiln.js serve --port=3000`). */
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** How long a stopping server may take after SIGTERM before it gets SIGKILL. */
  graceMs: number
  /** The server exited on its own (a boot error, a crash): it stays down until the next {@link DevSupervisor.start}. */
  onUnexpectedExit(code: number | null, signal: NodeJS.Signals | null): void
}

/**
 * Runs the app's server as one child process at a time: `start()` spawns it
 * (sharing this terminal, so its logs stay colourful and its errors readable),
 * `stop()` asks it to shut down gracefully and waits until it has exited, so
 * the next one can bind the same port.
 *
 * @example
 * ```ts
 * const server = new DevSupervisor({ command: process.execPath, args: [bin, 'serve'], cwd, env: process.env, graceMs: 5000, onUnexpectedExit: () => {} })
 * server.start()
 * await server.stop()
 * ```
 */
export class DevSupervisor {
  private child?: ChildProcess
  private exited?: Promise<void>

  constructor(private readonly options: SupervisorOptions) {}

  /** True while a server process runs. @example `if (!server.running) server.start()` */
  get running(): boolean {
    return this.child !== undefined
  }

  /** Spawns the server unless one runs already. @example `server.start()` */
  start(): void {
    if (this.child) return
    const child = spawn(this.options.command, this.options.args, { cwd: this.options.cwd, env: this.options.env, stdio: 'inherit' })
    this.child = child
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        const expected = child.killed
        if (this.child === child) this.child = undefined
        if (!expected) this.options.onUnexpectedExit(code, signal)
        resolve()
      })
      // A spawn failure (the program is missing) emits only `error`.
      child.once('error', () => {
        if (this.child === child) this.child = undefined
        resolve()
      })
    })
  }

  /**
   * Stops the server: SIGTERM, then SIGKILL after the grace period, and
   * resolves once the process is gone (its port is free again).
   *
   * @example
   * ```ts
   * await server.stop()
   * server.start()
   * ```
   */
  async stop(): Promise<void> {
    const child = this.child
    if (!child) return
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), this.options.graceMs)
    await this.exited
    clearTimeout(force)
  }
}

/**
 * The top-level entries of an app whose changes restart the server.
 *
 * @example
 * ```ts
 * console.log(`Watching ${WATCHED_ENTRIES.join(', ')}`)
 * ```
 */
export const WATCHED_ENTRIES = ['app', 'config', 'routes', 'resources', 'database', '.env']

// Database files change on every write (a watched SQLite file would restart the server on each request); editors
// write swap and backup files beside the ones they edit.
const IGNORED_FILES = /(\.sqlite\d?|\.db)(-journal|-wal|-shm)?$|\.sw[a-p]$|~$|(^|[\\/])\.#|(^|[\\/])\.DS_Store$/

/**
 * Whether a path under the app root is one whose changes restart the server:
 * inside `app/`, `config/`, `routes/`, `resources/`, `database/` or the
 * `.env` file, and not a database file, an editor's temporary file or
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

import { createServer } from 'node:net'
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { kilnPackageRoot } from '../../support/package-root.ts'
import pc from 'picocolors'
import { defineCommand } from '../define-command.ts'
import { DevSupervisor, isWatched } from '../dev-supervisor.ts'
import { waitForShutdownSignal } from '../shutdown-signal.ts'

const BIN = join(kilnPackageRoot(), 'bin/kiln.js')
/** Editors save in bursts (write, rename, touch): one restart for a burst. */
const DEBOUNCE_MS = 100
/** How long a server may take to finish its requests and close before it is killed. */
const GRACE_MS = 5000

/**
 * `kiln dev`: runs `kiln serve` in a child process and restarts it when the
 * app's code or settings change (`app/`, `config/`, `routes/`, `resources/`,
 * `database/`, `.env`). Each server binds the same port once the previous
 * one has exited. A server that fails to boot (a syntax error) prints its
 * error and stays down until the next change; Ctrl-C stops everything.
 *
 * It needs no booted app itself, so it keeps running while the app is broken.
 *
 * @example
 * ```ts
 * await runCli(['dev', '--port=8080'])
 * ```
 */
export const devCommand = defineCommand({
  name: 'dev',
  description: 'Serve the application and restart it when its files change',
  flags: {
    port: { type: 'number', description: 'Port to listen on (PORT, else 3000; 0 picks a free one and keeps it)', short: 'p' },
    host: { type: 'string', description: 'Address to bind (HOST, else 127.0.0.1)' },
  },
  needsApp: false,
  longRunning: true,
  examples: ['kiln dev', 'kiln dev --port=8080', 'kiln dev -p 0   # a free port, kept across restarts'],
  async run({ root, cwd, flags, info, warn }) {
    const host = flags.host as string | undefined
    // Port 0 would give every restart a new port: pick one free port now and keep it.
    const port = flags.port === 0 ? await freePort(host ?? '127.0.0.1') : (flags.port as number | undefined)
    // --verbose: a boot error is shown whole (a syntax error's file and line come after its first line).
    const args = [BIN, 'serve', '--verbose', ...(port !== undefined ? [`--port=${port}`] : []), ...(host ? [`--host=${host}`] : [])]
    const label = pc.dim('[kiln dev]')
    let closing = false

    const server = new DevSupervisor({
      command: process.execPath,
      args,
      cwd,
      env: { ...process.env, KILN_ROOT: root },
      graceMs: GRACE_MS,
      onUnexpectedExit(code, signal) {
        if (closing) return
        warn(`${label} The server stopped (${signal ?? `exit code ${code}`}). Kiln restarts it on the next change.`)
      },
    })

    let changed = new Set<string>()
    let timer: NodeJS.Timeout | undefined
    // Restarts run one after another: a change during a restart schedules the next one.
    let restarting: Promise<void> = Promise.resolve()
    const restart = () => {
      const files = [...changed]
      changed = new Set()
      restarting = restarting.then(async () => {
        if (closing) return
        info(`${label} ${describe(root, files)} changed, restarting`)
        await server.stop()
        if (!closing) server.start()
      })
    }

    // No `atomic`: it holds a deletion back to see whether the file returns, which splits an editor's save (temporary
    // file, rename) into two bursts; the debounce already merges them.
    // Imported here: every command of the CLI is registered at boot, and only `kiln dev` watches files.
    const { watch } = await import('chokidar')
    const watcher = watch(root, { ignoreInitial: true, atomic: false, ignored: (path) => !isWatched(root, path) })
    watcher.on('all', (event, path) => {
      // A new empty folder changes nothing the server loads; the files in a removed one report themselves.
      if (event === 'addDir' || event === 'unlinkDir') return
      changed.add(relative(root, path))
      clearTimeout(timer)
      timer = setTimeout(restart, DEBOUNCE_MS)
    })
    watcher.on('error', (error) => warn(`${label} Watching files failed: ${(error as Error).message}`))
    await new Promise<void>((resolve) => watcher.once('ready', resolve))

    info(`${label} Watching app/, config/, routes/, resources/, database/ and .env`)
    server.start()
    await waitForShutdownSignal()
    closing = true
    clearTimeout(timer)
    await watcher.close()
    await restarting
    await server.stop()
    return 0
  },
})

function describe(root: string, files: string[]): string {
  // An editor's temporary files are gone by now: name the files that were saved (or deleted, if nothing remains).
  const remaining = files.filter((file) => existsSync(join(root, file)))
  const [first, ...rest] = (remaining.length > 0 ? remaining : files).sort()
  return rest.length === 0 ? first! : `${first} and ${rest.length} other file${rest.length > 1 ? 's' : ''}`
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

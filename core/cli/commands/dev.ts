import { join, relative, sep } from 'node:path'
import { picocolors as pc } from '../../support/commonjs-packages.ts'
import { Env } from '../../config/env.ts'
import { kilnPackageRoot } from '../../support/package-root.ts'
import { changeKind, describeFiles } from '../../dev/changes.ts'
import { CommandError, defineCommand } from '../define-command.ts'
import { explainListenError } from '../serve-messages.ts'
import { DevSupervisor, isWatched } from '../dev-supervisor.ts'
import { waitForShutdownSignal } from '../shutdown-signal.ts'

const BIN = join(kilnPackageRoot(), 'bin/kiln.js')
/** Editors save in bursts (write, rename, touch): one reload for a burst, gathered this long. */
const DEBOUNCE_MS = 30
/** How long a server may take to finish its requests and close before it is killed. */
const GRACE_MS = 5000

/**
 * `kiln dev`: serves the application and follows its files. A view's
 * change is picked up in place, a change to code (`app/`, `config/`,
 * `routes/`, `database/`) re-imports the application in the same process,
 * and `.env`, `package.json` or `tsconfig.json` start a new server process;
 * the port stays open throughout (connections wait, none is refused), and
 * open pages reload by themselves. A syntax error shows in the browser and
 * in the terminal until the file is fixed; Ctrl-C stops everything.
 *
 * It boots no app itself, so it keeps running while the app is broken.
 *
 * @example
 * ```ts
 * await runCli(['dev', '--port=8080'])
 * ```
 */
export const devCommand = defineCommand({
  name: 'dev',
  description: 'Serve the application, reloading it and its open pages when its files change',
  flags: {
    port: { type: 'number', description: 'Port to listen on (PORT, else 3000; 0 picks a free one)', short: 'p' },
    host: { type: 'string', description: 'Address to bind (HOST, else 127.0.0.1)' },
  },
  needsApp: false,
  longRunning: true,
  examples: ['kiln dev', 'kiln dev --port=8080', 'kiln dev -p 0   # any free port'],
  async run({ root, cwd, flags, info, warn }) {
    // The server process this command starts runs this command again, with KILN_DEV_HOST set and an IPC channel.
    if (process.env.KILN_DEV_HOST === '1' && process.send) {
      delete process.env.KILN_DEV_HOST
      const { runDevHost } = await import('../../dev/dev-host.ts')
      const code = await runDevHost({ root, url: process.env.KILN_DEV_URL ?? '', info, warn, stopped: hostStopped(), graceMs: GRACE_MS })
      // The IPC channel would keep this process alive: `kiln dev` waits for it to exit.
      if (process.connected) process.disconnect()
      return code
    }

    const env = Env.load(root)
    const host = (flags.host as string | undefined) ?? env.unchecked.get('HOST', '127.0.0.1')
    const wanted = (flags.port as number | undefined) ?? env.unchecked.number('PORT', 3000)
    const label = pc.dim('[kiln dev]')
    let closing = false
    const serverEnv: NodeJS.ProcessEnv = { ...process.env, KILN_ROOT: root }

    const servers = new DevSupervisor({
      command: process.execPath,
      args: [BIN, 'dev'],
      cwd,
      env: serverEnv,
      graceMs: GRACE_MS,
      onUnexpectedExit(code, signal, restarting) {
        if (closing) return
        const how = signal ?? `exit code ${code}`
        warn(`${label} The server stopped (${how}). ${restarting ? 'Kiln starts it again.' : 'Kiln starts it again on the next change.'}`)
      },
    })
    const port = await servers.listen(wanted, host).catch((error: NodeJS.ErrnoException) => error)
    // The same sentence as `kiln serve`'s for a taken or privileged port.
    if (port instanceof Error) throw explainListenError(port, { port: wanted, host, command: 'kiln dev' })
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
    serverEnv.KILN_DEV_URL = url

    let changed = new Set<string>()
    let timer: NodeJS.Timeout | undefined
    const flush = () => {
      const files = [...changed]
      changed = new Set()
      if (closing) return
      if (files.some((file) => changeKind(file) === 'restart')) {
        info(`${label} ${describeFiles(root, files)} changed, restarting the server`)
        servers.restart()
      } else servers.changed(files)
    }

    // No `atomic`: it holds a deletion back to see whether the file returns, which splits an editor's save (temporary
    // file, rename) into two bursts; the debounce already merges them.
    // Imported here: every command of the CLI is registered at boot, and only `kiln dev` watches files.
    const { watch } = await import('chokidar').catch((error: unknown) => {
      // A development dependency of the app (kiln new adds it), not of Kiln: production installs go without it.
      if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error
      throw new CommandError('kiln dev watches files with chokidar, which is not installed: run npm install --save-dev chokidar pino-pretty.')
    })
    const watcher = watch(root, { ignoreInitial: true, atomic: false, ignored: (path) => !isWatched(root, path) })
    watcher.on('all', (event, path) => {
      // A new empty folder changes nothing the server loads; the files in a removed one report themselves.
      if (event === 'addDir' || event === 'unlinkDir') return
      changed.add(relative(root, path).split(sep).join('/'))
      clearTimeout(timer)
      timer = setTimeout(flush, DEBOUNCE_MS)
    })
    watcher.on('error', (error) => warn(`${label} Watching files failed: ${(error as Error).message}`))
    await new Promise<void>((resolve) => watcher.once('ready', resolve))

    // Listening before the first line: Ctrl-C right after it must find the handler.
    const stopped = waitForShutdownSignal()
    info(`${label} Listening on ${url}, watching app/, config/, routes/, resources/, database/ and .env`)
    servers.start()
    await stopped
    closing = true
    clearTimeout(timer)
    await watcher.close()
    await servers.stop()
    return 0
  },
})

/** The server process stops on SIGINT/SIGTERM, or when `kiln dev` is gone (its IPC channel closes). */
function hostStopped(): Promise<unknown> {
  const stopped = Promise.race([waitForShutdownSignal(), new Promise((resolve) => process.once('disconnect', resolve))])
  // Ctrl-C reaches both processes, then `kiln dev` sends SIGTERM: once stopping, later signals must not cut the
  // graceful stop short (`kiln dev` sends SIGKILL after the grace period).
  void stopped.then(() => {
    process.on('SIGINT', () => {})
    process.on('SIGTERM', () => {})
  })
  return stopped
}

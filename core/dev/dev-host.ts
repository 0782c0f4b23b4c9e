import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { resolve } from 'node:path'
import { toNodeHandler } from 'srvx/node'
import type { Application } from '../application/application.ts'
import type { ServerHandlers } from '../http/serve.ts'
import { Env } from '../config/env.ts'
import { servingLine } from '../cli/serve-messages.ts'
import { changeKind, describeFiles, pageRefresh } from './changes.ts'
import { devAppUrl } from './dev-app-url.ts'
import { DEV_EVENTS_PATH, isPageNavigation, withDevClient } from './dev-client.ts'
import { DevEvents } from './dev-events.ts'
import { DevPages } from './dev-pages.ts'
import { devHostCheck, foreignHost } from './dev-hosts.ts'
import { loadError, loadErrorPage } from './load-error.ts'
import { errorPage } from '../http/errors/error-page.ts'
import type { HostMessage } from './host-message.ts'
import { installReloadHooks } from './reload-hooks.ts'

/** How the server process of `kiln dev` runs. */
export interface DevHostOptions {
  root: string
  /** The address `kiln dev` listens on, for the startup line. */
  url: string
  info(line: string): void
  warn(line: string): void
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM, or `kiln dev` gone). */
  stopped: Promise<unknown>
  /** How long in-flight requests may take once the process is asked to stop. */
  graceMs: number
}

// How long a stopping process keeps taking connections handed over before the stop, and waits for the first request
// of a connection that has sent none yet (a browser's preconnect may never send one).
const HANDOVER_SETTLE_MS = 100
const FRESH_CONNECTION_MS = 1000

type Loaded = { app: Application; handlers: ServerHandlers; error?: undefined } | { error: Error; app?: undefined }

/**
 * The server process of `kiln dev`. It serves the connections `kiln dev`
 * accepts and hands over (the listening socket stays with `kiln dev`, so
 * nothing is refused while this process starts or restarts), and follows
 * the changes it is told about:
 *
 * - a view: the view engine forgets that file; open pages reload, or
 *   re-render their components from their state when only components' views
 *   changed;
 * - code (`app/`, `config/`, `routes/`, `database/`): the application is
 *   created again from its modules, imported afresh (`reload-hooks.ts`),
 *   and takes the place of the old one on the same server, once it has
 *   booted; requests in between go to the old one.
 *
 * While the application cannot load (a syntax error), the terminal gets the
 * error with its file and line, and browsers a 500: with `APP_DEBUG`, the
 * error page (JSON clients the message); without it, a page that says only
 * that the app did not load. The next change tries again. The event stream
 * and that page answer only under the dev server's own host names
 * (`dev-hosts.ts`), 403 otherwise. Pages get a small
 * script that reloads them after each change (`dev-client.ts`). Plugins'
 * dev pages (`/_kiln/<name>`, `dev-pages.ts`) answer only with `APP_DEBUG`
 * and under those host names; otherwise the app answers, with its 404.
 *
 * @example
 * ```ts
 * await runDevHost({ root, url: 'http://127.0.0.1:3000', info, warn, stopped: waitForShutdownSignal(), graceMs: 5000 })
 * ```
 */
export async function runDevHost(options: DevHostOptions): Promise<number> {
  const { root, info, warn } = options
  const label = '[kiln dev]'
  const hooks = installReloadHooks(root)
  let builds = 0
  const events = new DevEvents(`${process.pid}.${builds}`)
  // One for the process: every reloaded app gets the same, so what a plugin records there outlives a reload.
  const dev = new DevPages()
  let inFlight = 0
  let announced = false

  const boot = async (): Promise<Loaded> => {
    try {
      // Through the package's own name, as an application would: the dev tools sit beside the kernel, not inside it.
      const { createApp } = await import('kiln-framework')
      // Views compile once and are forgotten file by file as they change (see `apply`). Links made outside a request
      // (mails) point at the port kiln dev serves when APP_URL names this machine on another one.
      const url = devAppUrl(Env.load(root).get('APP_URL'), options.url)
      const app = await createApp({ root, dev, config: { views: { cache: true }, ...(url ? { app: { url } } : {}) } })
      const { serverHandlers } = await import('../http/serve.ts')
      return { app, handlers: serverHandlers(app) }
    } catch (error) {
      return { error: loadError(error) }
    }
  }
  /** `what` opens the terminal's line when the app did not load: "routes/web.ts changed: the application did not load." */
  const report = (loaded: Loaded, what: string) => {
    if (loaded.error) warn(`${label} ${what}the application did not load.\n${loaded.error.stack}`)
    else if (!announced) {
      announced = true
      info(servingLine(loaded.app.config.get<string>('app.name'), `${options.url}${loaded.app.urls.basePath || '/'}`))
      const configured = Env.load(root).get('APP_URL')
      if (devAppUrl(configured, options.url))
        info(`${label} APP_URL is ${configured}: links in mails use ${loaded.app.config.get<string>('app.url')} while kiln dev serves here.`)
    }
  }

  let loaded = boot()
  void loaded.then((first) => report(first, `${root}: `))

  // The dev server's own answers (the event stream, the page of a load error) only under its own names: DNS rebinding.
  const ownHost = devHostCheck(options.url, Env.load(root).get('APP_URL'))
  const handle = async (request: Request): Promise<Response> => {
    const host = request.headers.get('host')
    if (new URL(request.url).pathname.endsWith(DEV_EVENTS_PATH)) return ownHost(host) ? events.stream() : foreignHost(host)
    const current = await loaded
    if (current.error) return ownHost(host) ? errorResponse(request, current.error, root, events.build) : foreignHost(host)
    // The dev pages (`/_kiln/mail`) only with APP_DEBUG and under the dev server's own names; else the app answers (404).
    const page = current.app.debug && ownHost(host) ? await dev.answer(request, current.app.urls.basePath) : undefined
    if (page) return page
    const response = await current.handlers.fetch(request)
    // APP_ENV=production under kiln dev (trying a production setting locally): pages are served as production serves them.
    const inject = current.app.environment !== 'production' && isPageNavigation(request, response)
    return inject ? withDevClient(response, events.build, current.app.urls.basePath) : response
  }
  const nodeHandler = toNodeHandler(handle)
  let stopping = false
  const server = createServer((req, res) => {
    served.add(req.socket)
    // A connection kept alive past the stop would be cut mid-reuse: the client is told to open a new one (to the new process).
    if (stopping) res.shouldKeepAlive = false
    inFlight++
    res.once('close', () => inFlight--)
    // srvx types its handler for HTTP/2 as well; this server is HTTP/1.
    void nodeHandler(req as never, res as never)
  })
  server.on('upgrade', (req, socket, head) => {
    void loaded.then((current) => (current.error ? socket.destroy() : current.handlers.upgrade(req, socket, head)))
  })

  // Changes are applied one batch at a time; those that arrive meanwhile make the next batch.
  let pending = new Set<string>()
  let applying: Promise<void> | undefined
  const apply = async (files: string[]) => {
    const started = performance.now()
    const since = events.build
    const kinds = new Set(files.map(changeKind))
    const previous = await loaded
    let refresh = pageRefresh(files)
    if (kinds.has('code')) {
      hooks.bump()
      const next = await boot()
      loaded = Promise.resolve(next)
      if (previous.app) retire(previous)
      report(next, `${describeFiles(root, files)} changed: `)
      if (next.error) refresh = 'page'
      else info(`${label} ${describeFiles(root, files)} changed: the application reloaded in ${Math.round(performance.now() - started)} ms`)
    } else {
      for (const file of files) previous.app?.views.forget(resolve(root, file))
      if (previous.error) refresh = 'page'
      info(`${label} ${describeFiles(root, files)} changed: ${kinds.has('views') ? 'views' : 'pages'} refreshed`)
    }
    events.publish({ id: `${process.pid}.${++builds}`, since, refresh })
  }
  const drain = async () => {
    while (pending.size > 0) {
      const files = [...pending]
      pending = new Set()
      await apply(files)
    }
    applying = undefined
  }

  const sockets = new Set<Socket>()
  /** Connections that sent at least one request: an idle one of these may be closed, the client knows to retry. */
  const served = new WeakSet<Socket>()
  const onMessage = (message: HostMessage, handle: unknown) => {
    if (message?.type === 'kiln-dev:connection' && handle) {
      const socket = handle as Socket
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      server.emit('connection', socket)
    } else if (message?.type === 'kiln-dev:change') {
      for (const file of message.files) pending.add(file)
      applying ??= drain()
    }
  }
  process.on('message', onMessage)
  process.on('unhandledRejection', onRejection)
  process.send?.({ type: 'kiln-dev:ready' } satisfies HostMessage)

  await options.stopped
  stopping = true
  events.close()
  // kiln dev stops this process as soon as its successor is ready, so connections handed over a moment earlier may
  // still be on their way here, or here without their request yet: closing them would reset a request nobody sent
  // twice. They get a short while to arrive and ask, and in-flight requests the grace period to end.
  const stoppedAt = Date.now()
  const deadline = stoppedAt + options.graceMs
  const waiting = () => {
    const since = Date.now() - stoppedAt
    if (since < HANDOVER_SETTLE_MS) return true
    return inFlight > 0 || (since < FRESH_CONNECTION_MS && [...sockets].some((socket) => !served.has(socket)))
  }
  while (waiting() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20))
  process.off('message', onMessage)
  for (const socket of sockets) socket.destroy()
  await applying
  const last = await loaded
  if (last.app) {
    last.handlers.websockets.closeAll(1001, 'Server shutting down')
    await last.app.close()
  }
  process.off('unhandledRejection', onRejection)
  return 0

  function onRejection(reason: unknown) {
    // As `kiln serve`: a promise nobody awaited is logged, and the server keeps serving.
    void loaded.then((current) =>
      (current.app?.logger ?? { error: (_: unknown, line: string) => warn(line) }).error(
        { err: reason instanceof Error ? { message: reason.message, stack: reason.stack } : String(reason) },
        'A promise was rejected and nothing awaited it; the server keeps serving',
      ),
    )
  }
}

// Without APP_DEBUG the browser learns no more than that (the terminal has the error, its file and line).
const LOAD_FAILED = 'The application did not load. The terminal running kiln dev shows why.'

/** The old application, replaced: its sockets are told to reconnect, and it closes once its last requests had time to end. */
function retire(old: { app: Application; handlers: ServerHandlers }): void {
  old.handlers.websockets.closeAll(1012, 'Service restart')
  setTimeout(() => void old.app.close().catch(() => {}), 2000).unref()
}

async function errorResponse(request: Request, error: Error, root: string, build: string): Promise<Response> {
  const headers = { 'cache-control': 'no-store' }
  // Read now, not at startup: APP_DEBUG may have been set in the process's environment or the .env since.
  const debug = Env.load(root).boolean('APP_DEBUG', false)
  if (!(request.headers.get('accept') ?? '').includes('text/html')) {
    const message = debug ? `The application did not load: ${error.message}` : LOAD_FAILED
    return Response.json({ message }, { status: 500, headers })
  }
  const html = debug ? await loadErrorPage(error, root) : errorPage(500, LOAD_FAILED)
  const page = new Response(html, { status: 500, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } })
  return isPageNavigation(request, page) ? withDevClient(page, build) : page
}

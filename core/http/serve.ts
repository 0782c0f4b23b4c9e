import type { AddressInfo } from 'node:net'
import type { IncomingMessage, Server as NodeServer } from 'node:http'
import type { Duplex } from 'node:stream'
import nodeAdapter from 'crossws/adapters/node'
import type { Hooks, Peer } from 'crossws'
import { addRoute, createRouter, findRoute } from 'rou3'
import { serve } from 'srvx'
import type { Application } from '../application/application.ts'

/** Options for {@link listen}. */
export interface ListenOptions {
  /** 0 picks a free port. Default 0. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
}

/** A running HTTP + websocket server. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT` (without the base path). */
  url: string
  port: number
  /** The crossws adapter: `publish(topic, data)`, `peers`. */
  websockets: ReturnType<typeof nodeAdapter>
  /** Stops accepting connections, closes sockets and waits for in-flight requests (up to `timeoutMs`). */
  close(timeoutMs?: number): Promise<void>
}

/** What a Node HTTP server needs to serve an app: its requests, its websocket upgrades, and the websockets adapter. */
export interface ServerHandlers {
  /** A `Response` when the answer is known at once (srvx sends either without waiting a turn). */
  fetch(request: Request): Response | Promise<Response>
  /** For the Node server's `upgrade` event: a websocket route's upgrade, else a 404 and the socket closed. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void
  websockets: ReturnType<typeof nodeAdapter>
}

/**
 * The request and upgrade handlers {@link listen} puts on its server, for a
 * server Kiln does not create itself (`kiln dev` keeps one server and swaps
 * the app behind it when the code changes).
 *
 * @example
 * ```ts
 * const { fetch, upgrade } = serverHandlers(app)
 * nodeServer.on('upgrade', upgrade)
 * ```
 */
export function serverHandlers(app: Application): ServerHandlers {
  const kernel = app.service('http')
  const router = app.service('router')
  const urls = app.service('url')
  const sockets = createRouter<Partial<Hooks>>()
  for (const route of router.websockets()) addRoute(sockets, '', route.path.replace(/\{(\w+)\}/g, ':$1'), route.hooks)

  const websockets = nodeAdapter({
    // ws would otherwise buffer frames up to 100 MiB before anyone can refuse them.
    serverOptions: { maxPayload: app.config.get<number>('http.websocket_max_payload', 1_048_576) },
    hooks: routeHooks((request) => findRoute(sockets, '', urls.strip(new URL(request.url).pathname))?.data ?? {}),
  })
  return {
    fetch: (request) => kernel.serveNow(request),
    upgrade(req, socket, head) {
      const path = urls.strip(new URL(req.url ?? '/', 'http://localhost').pathname)
      if (!findRoute(sockets, '', path)) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return
      }
      websockets.handleUpgrade(req, socket, head).catch(() => socket.destroy())
    },
    websockets,
  }
}

/**
 * Serves the app on a real port with srvx, and its websocket routes through a
 * crossws node adapter that Kiln creates itself (so the server can publish).
 *
 * @example
 * ```ts
 * const server = await listen(app, { port: 3000 })
 * console.log(server.url)
 * await server.close()
 * ```
 */
export async function listen(app: Application, options: ListenOptions = {}): Promise<RunningServer> {
  const { fetch, upgrade, websockets } = serverHandlers(app)
  const server = serve({
    fetch,
    port: options.port ?? 0,
    hostname: options.host ?? '127.0.0.1',
    silent: true,
    gracefulShutdown: false,
    // srvx listens `exclusive` unless it reuses the port; Node's own default lets the workers of `kiln serve --workers`
    // (node:cluster) share one listening socket, port 0 included. Outside a cluster it changes nothing.
    node: { exclusive: false },
  })
  await server.ready()
  const node = server.node!.server as NodeServer
  node.on('upgrade', upgrade)
  const port = (node.address() as AddressInfo).port
  const host = options.host ?? '127.0.0.1'
  let closing: Promise<void> | undefined

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    websockets,
    close(timeoutMs = 5000) {
      closing ??= (async () => {
        websockets.closeAll(1001, 'Server shutting down')
        const closed = server.close()
        const timer = setTimeout(() => node.closeAllConnections?.(), timeoutMs)
        node.closeIdleConnections?.()
        await closed
        clearTimeout(timer)
      })()
      return closing
    },
  }
}

/** Where a socket's route hooks are kept: on crossws's per-peer context object, which every peer has anyway. */
const ROUTE_HOOKS = Symbol('kiln.websocket.hooks')

/**
 * crossws hooks that hand each event to the hooks of the socket's route,
 * found once by its path at the upgrade and kept on the peer's context.
 * crossws's own `resolve` option would look them up the same way but keep
 * a cache entry per socket (a WeakMap keyed by its context) for the
 * socket's life, and wait on a promise for every frame.
 */
function routeHooks(resolve: (request: Request) => Partial<Hooks>): Partial<Hooks> {
  // Each hook is async as under `resolve`: a hook that throws is a rejected promise the server logs, not an uncaught exception.
  const of = (peer: Peer) => (peer.context as Record<symbol, Partial<Hooks> | undefined>)[ROUTE_HOOKS]
  return {
    async upgrade(request) {
      const hooks = resolve(request)
      const result = await hooks.upgrade?.(request)
      if (result instanceof Response) return result
      return { ...result, context: { ...result?.context, [ROUTE_HOOKS]: hooks } }
    },
    open: async (peer) => of(peer)?.open?.(peer),
    message: async (peer, message) => of(peer)?.message?.(peer, message),
    close: async (peer, details) => of(peer)?.close?.(peer, details),
    error: async (peer, error) => of(peer)?.error?.(peer, error),
    ping: async (peer, data) => of(peer)?.ping?.(peer, data),
    pong: async (peer, data) => of(peer)?.pong?.(peer, data),
    drain: async (peer) => of(peer)?.drain?.(peer),
  }
}

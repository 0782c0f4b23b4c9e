/**
 * A realtime server in its own process, for the benches that measure a
 * process (P3 memory, P5 multi-process). MODE `kiln` runs an app whose active
 * connection is `rt` (scaling through Redis when RT_SCALING=1), MODE `raw` a
 * bare crossws server whose sockets join topic `bench`.
 *
 * IPC in: `{type:'rss'}` → `{type:'rss', rss, sockets}` (after a full GC),
 * `{type:'broadcast', payload}` → `{type:'sent'}`, `{type:'exit'}`.
 * IPC out first: `{type:'ready', url}`.
 */
import type { AddressInfo } from 'node:net'
import { writeHeapSnapshot } from 'node:v8'
import type { Server as NodeServer } from 'node:http'
import nodeAdapter from 'crossws/adapters/node'
import { serve } from 'srvx'
import { createApp } from '../core/index.ts'
import websocketDriver, { type WebsocketBroadcaster } from '../drivers/broadcast/websocket/index.ts'
import { broadcasting } from '../plugins/broadcasting/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'

const mode = process.argv[2]
const gc = (globalThis as { gc?: () => void }).gc

async function kiln() {
  const scaling = process.env.RT_SCALING === '1'
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test', LOG_LEVEL: 'warn' },
    plugins: [broadcasting(), websocketDriver],
    config: {
      broadcasting: {
        default: 'rt',
        connections: {
          rt: {
            driver: 'rt',
            key: 'bench',
            secret: 'bench-secret',
            activity_timeout: 120,
            // Every bench socket comes from 127.0.0.1: the per-process and per-address caps would refuse most of them. They are
            // raised, not switched off, so the address accounting runs as in an app; the per-socket subscribe rate keeps its default.
            max_connections: 100_000,
            // RT_ADDRESS_LIMITS=off: what the per-address accounting costs (reading each socket's address).
            max_connections_per_address: process.env.RT_ADDRESS_LIMITS === 'off' ? null : 100_000,
            subscribe_rate_per_address: process.env.RT_ADDRESS_LIMITS === 'off' ? null : { limit: 1_000_000, per_seconds: 10 },
            scaling: { enabled: scaling, url: process.env.REDIS_URL, prefix: process.env.RT_PREFIX ?? 'kiln-bench:' },
          },
        },
      },
    },
  })
  const server = await app.listen({ port: 0 })
  const rt = app.service('broadcast').connection() as WebsocketBroadcaster
  return {
    url: `${server.url.replace('http', 'ws')}/broadcasting/socket`,
    sockets: () => rt.server.size,
    broadcast: (payload: Record<string, unknown>) => rt.broadcast({ channels: ['bench'], event: 'Tick', payload }),
  }
}

/**
 * The least a crossws app that does the same job needs: a socket names its
 * channel in a frame (`{event:'subscribe', data:{channel}}`), joins that
 * topic and is told so. Kiln's sockets subscribe with a frame as well, and
 * a socket that received a frame keeps more in `ws` than one that never did.
 */
async function raw() {
  let sockets = 0
  const adapter = nodeAdapter({
    hooks: {
      open: () => {
        sockets++
      },
      message: (peer, message) => {
        const frame = message.json<{ event?: string; data?: { channel?: unknown } }>()
        if (frame.event !== 'subscribe' || typeof frame.data?.channel !== 'string') return
        peer.subscribe(frame.data.channel)
        peer.send('{"event":"subscribed"}')
      },
      close: () => {
        sockets--
      },
    },
  })
  // No graceful shutdown: srvx's would hold the process open on the bench's SIGTERM.
  const server = serve({ fetch: () => new Response('ws only', { status: 426 }), port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
  await server.ready()
  const node = server.node!.server as NodeServer
  node.on('upgrade', (req, socket, head) => void adapter.handleUpgrade(req, socket, head))
  return {
    // The same path as Kiln's socket route: crossws keeps a socket's path (and the URL it was cut from) as its namespace.
    url: `ws://127.0.0.1:${(node.address() as AddressInfo).port}/broadcasting/socket`,
    sockets: () => sockets,
    broadcast: async (payload: Record<string, unknown>) => adapter.publish('bench', JSON.stringify({ event: 'Tick', channel: 'bench', data: payload })),
  }
}

const server = mode === 'raw' ? await raw() : await kiln()
process.on('message', async (message: { type: string; payload?: Record<string, unknown>; path?: string }) => {
  if (message.type === 'rss') {
    gc?.()
    gc?.()
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage()
    process.send!({ type: 'rss', rss, heapUsed, heapTotal, external, sockets: server.sockets() })
  } else if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage()
    process.send!({ type: 'cpu', micros: user + system })
  } else if (message.type === 'snapshot') {
    // A heap snapshot for profiling (`node --inspect`-free): where it was written.
    gc?.()
    process.send!({ type: 'snapshot', path: writeHeapSnapshot(message.path) })
  } else if (message.type === 'broadcast') {
    await server.broadcast(message.payload!)
    process.send!({ type: 'sent' })
  } else if (message.type === 'exit') process.exit(0)
})
process.send!({ type: 'ready', url: server.url })

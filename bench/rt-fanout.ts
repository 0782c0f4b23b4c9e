/**
 * P2: one event to 5,000 subscribed sockets through the rt server (the
 * broadcaster → server → native frames path), against a raw crossws
 * `publish` of the same bytes to the same number of sockets. Both servers
 * listen in this process; the sockets live in a separate client process.
 */
import type { AddressInfo } from 'node:net'
import type { Server as NodeServer } from 'node:http'
import nodeAdapter from 'crossws/adapters/node'
import { serve } from 'srvx'
import { createApp } from '../core/index.ts'
import websocketDriver, { type WebsocketBroadcaster } from '../drivers/websocket/index.ts'
import { broadcasting } from '../plugins/broadcasting/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { fanOut, histogramLines, socketClients } from './ws-measure.ts'

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000)
const EVENTS = 30

/** A bare srvx + crossws server whose sockets all join topic `bench`. */
async function rawServer() {
  const adapter = nodeAdapter({ hooks: { open: (peer) => peer.subscribe('bench') } })
  const server = serve({ fetch: () => new Response('ws only', { status: 426 }), port: 0, hostname: '127.0.0.1', silent: true })
  await server.ready()
  const node = server.node!.server as NodeServer
  node.on('upgrade', (req, socket, head) => void adapter.handleUpgrade(req, socket, head))
  return { adapter, url: `ws://127.0.0.1:${(node.address() as AddressInfo).port}/`, close: () => server.close(true) }
}

export async function rtFanout(): Promise<void> {
  const app = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test', LOG_LEVEL: 'warn' },
    plugins: [broadcasting(), websocketDriver],
    config: { broadcasting: { default: 'rt', connections: { rt: { driver: 'rt', key: 'bench', secret: 'bench-secret' } } } },
  })
  const kilnServer = await app.listen({ port: 0 })
  const rt = app.service('broadcast').connection() as WebsocketBroadcaster
  const raw = await rawServer()
  try {
    // One client process per side: on a 2-core machine a second one competes with the server for the CPU.
    const kilnClients = [await socketClients(`${kilnServer.url.replace('http', 'ws')}/broadcasting/socket`, SOCKETS, 'rt')]
    const rawClients = [await socketClients(raw.url, SOCKETS, 'raw')]
    const best = {
      kiln: { perSecond: 0, p50: 0, p99: Infinity, histogram: [] as number[] },
      raw: { perSecond: 0, p50: 0, p99: Infinity, histogram: [] as number[] },
    }
    let id = 0
    // Warm both paths, then alternate so machine noise hits both alike.
    await fanOut(kilnClients, SOCKETS, 5, (data) => rt.broadcast({ channels: ['bench'], event: 'Tick', payload: data }), (id += 5) - 5)
    await fanOut(rawClients, SOCKETS, 5, (data) => raw.adapter.publish('bench', JSON.stringify({ event: 'Tick', channel: 'bench', data })), (id += 5) - 5)
    for (let round = 0; round < 3; round++) {
      const r = await fanOut(
        rawClients,
        SOCKETS,
        EVENTS,
        (data) => raw.adapter.publish('bench', JSON.stringify({ event: 'Tick', channel: 'bench', data })),
        (id += EVENTS) - EVENTS,
      )
      const k = await fanOut(
        kilnClients,
        SOCKETS,
        EVENTS,
        (data) => rt.broadcast({ channels: ['bench'], event: 'Tick', payload: data }),
        (id += EVENTS) - EVENTS,
      )
      if (r.perSecond > best.raw.perSecond) best.raw = r
      if (k.perSecond > best.kiln.perSecond) best.kiln = k
    }
    const ratio = best.kiln.perSecond / best.raw.perSecond
    const verdict = ratio >= 0.8 && best.kiln.p99 <= 50 ? 'met' : 'NOT met'
    console.log(
      `P2 rt fan-out to ${SOCKETS} sockets: kiln ${best.kiln.perSecond} deliveries/s (p50 ${best.kiln.p50.toFixed(1)} ms, p99 ${best.kiln.p99.toFixed(1)} ms), ` +
        `raw crossws ${best.raw.perSecond} deliveries/s (p50 ${best.raw.p50.toFixed(1)} ms, p99 ${best.raw.p99.toFixed(1)} ms), ratio ${ratio.toFixed(2)}  (goal ≥ 0.8 and p99 ≤ 50 ms: ${verdict})`,
    )
    console.log(
      `  latency from publish to receipt, kiln:\n${histogramLines(best.kiln.histogram).join('\n')}\n  raw crossws:\n${histogramLines(best.raw.histogram).join('\n')}`,
    )
    await Promise.all([...kilnClients, ...rawClients].map((c) => c.exit()))
  } finally {
    await raw.close()
    await app.close()
  }
}

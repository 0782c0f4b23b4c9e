/**
 * P5: the cost of scaling out. One broadcast published through the `kv`
 * driver and relayed by two rt processes (half the sockets each), against
 * the same broadcast from inside one rt process holding every socket. Servers
 * and sockets are separate processes; Redis is the local server.
 */
import { randomBytes } from 'node:crypto'
import { createApp } from '../core/index.ts'
import kvDriver from '../drivers/kv/index.ts'
import { broadcasting } from '../plugins/broadcasting/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { serverProcess } from './server-process.ts'
import { fanOut, socketClients } from './ws-measure.ts'

const SOCKETS = Number(process.env.BENCH_SCALING_SOCKETS ?? 2000)
const EVENTS = 30

export async function rtScaling(): Promise<void> {
  const prefix = `kiln-bench-${randomBytes(4).toString('hex')}:`
  const single = await serverProcess('kiln')
  const scaled = await Promise.all([
    serverProcess('kiln', { RT_SCALING: '1', RT_PREFIX: prefix }),
    serverProcess('kiln', { RT_SCALING: '1', RT_PREFIX: prefix }),
  ])
  const publisher = await createApp({
    root: tempApp(),
    env: { APP_ENV: 'test', LOG_LEVEL: 'warn' },
    plugins: [broadcasting(), kvDriver],
    config: { broadcasting: { default: 'kv', connections: { kv: { driver: 'kv', url: process.env.REDIS_URL, prefix } } } },
  })
  const kv = publisher.service('broadcast').connection()
  try {
    const singleClients = [await socketClients(single.url, SOCKETS, 'rt')]
    const scaledClients = [await socketClients(scaled[0].url, SOCKETS / 2, 'rt'), await socketClients(scaled[1].url, SOCKETS / 2, 'rt')]
    const viaKv = (data: Record<string, unknown>) => kv.broadcast({ channels: ['bench'], event: 'Tick', payload: data })
    let id = 0
    const next = (n: number) => (id += n) - n
    await fanOut(singleClients, SOCKETS, 5, (data) => single.broadcast(data), next(5))
    await fanOut(scaledClients, SOCKETS, 5, viaKv, next(5))
    const best = { one: { perSecond: 0, p50: 0, p99: 0 }, two: { perSecond: 0, p50: 0, p99: 0 } }
    for (let round = 0; round < 3; round++) {
      const one = await fanOut(singleClients, SOCKETS, EVENTS, (data) => single.broadcast(data), next(EVENTS))
      const two = await fanOut(scaledClients, SOCKETS, EVENTS, viaKv, next(EVENTS))
      if (one.perSecond > best.one.perSecond) best.one = one
      if (two.perSecond > best.two.perSecond) best.two = two
    }
    const ratio = best.two.perSecond / best.one.perSecond
    console.log(
      `P5 rt scaled through kv: two processes ${best.two.perSecond} deliveries/s (p99 ${best.two.p99.toFixed(1)} ms), ` +
        `one process ${best.one.perSecond} deliveries/s (p99 ${best.one.p99.toFixed(1)} ms), ${SOCKETS} sockets, ratio ${ratio.toFixed(2)}  (goal ≥ 0.6: ${ratio >= 0.6 ? 'met' : 'NOT met'})`,
    )
    await Promise.all([...singleClients, ...scaledClients].map((c) => c.exit()))
  } finally {
    single.exit()
    for (const server of scaled) server.exit()
    await publisher.close()
  }
}

/**
 * P5: the cost of scaling out. One broadcast published through the `kv`
 * driver and relayed by two rt processes (half the sockets each), against
 * the same broadcast from inside one rt process holding every socket. What
 * decides whether another machine adds capacity is the CPU time each
 * delivered message costs the servers, so that is measured: every server
 * process reports its own CPU time (`process.cpuUsage()`), summed over the
 * servers and divided by the deliveries. Servers and sockets are separate
 * processes; Redis is the local server. Three rounds, alternating, the median.
 */
import { randomBytes } from 'node:crypto'
import { createApp } from '../core/index.ts'
import kvDriver from '../drivers/broadcast/kv/index.ts'
import { broadcasting } from '../plugins/broadcasting/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { serverProcess, type ServerProcess } from './server-process.ts'
import { fanOut, socketClients, type SocketClients } from './ws-measure.ts'

const SOCKETS = Number(process.env.BENCH_SCALING_SOCKETS ?? 2000)
const EVENTS = 30
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const GOAL = 1.2

/** CPU µs per delivery, summed over `servers`, for `events` events to every socket. */
async function cpuPerDelivery(servers: ServerProcess[], clients: SocketClients[], send: (data: Record<string, unknown>) => unknown, firstId: number) {
  const cpu = async () => (await Promise.all(servers.map((s) => s.cpu()))).reduce((sum, micros) => sum + micros, 0)
  const before = await cpu()
  const result = await fanOut(clients, SOCKETS, EVENTS, send, firstId)
  return { ...result, micros: ((await cpu()) - before) / (SOCKETS * EVENTS) }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

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
    const inProcess = (data: Record<string, unknown>) => single.broadcast(data)
    let id = 0
    const next = (n: number) => (id += n) - n
    await fanOut(singleClients, SOCKETS, 5, inProcess, next(5))
    await fanOut(scaledClients, SOCKETS, 5, viaKv, next(5))
    const one = []
    const two = []
    for (let round = 0; round < ROUNDS; round++) {
      one.push(await cpuPerDelivery([single], singleClients, inProcess, next(EVENTS)))
      two.push(await cpuPerDelivery(scaled, scaledClients, viaKv, next(EVENTS)))
    }
    const [a, b] = [median(one.map((r) => r.micros)), median(two.map((r) => r.micros))]
    const ratio = b / a
    console.log(
      `P5 rt scaled through kv, ${SOCKETS} sockets: server CPU per delivered message, two processes ${b.toFixed(2)} µs, one process ${a.toFixed(2)} µs, ` +
        `ratio ${ratio.toFixed(2)}  (goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
    )
    console.log(
      `  rounds (µs): one ${one.map((r) => r.micros.toFixed(2)).join(', ')}; two ${two.map((r) => r.micros.toFixed(2)).join(', ')}; ` +
        `deliveries/s (wall clock, shared cores): one ${median(one.map((r) => r.perSecond))}, two ${median(two.map((r) => r.perSecond))}`,
    )
    await Promise.all([...singleClients, ...scaledClients].map((c) => c.exit()))
  } finally {
    single.exit()
    for (const server of scaled) server.exit()
    await publisher.close()
  }
}

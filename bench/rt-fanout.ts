/**
 * P2: one event to 5,000 subscribed sockets through the rt server (the
 * broadcaster → server → native frames path), against a raw crossws
 * `publish` of the same bytes to the same number of sockets. Each server
 * runs in its own process (so its CPU time is its own); the sockets live in
 * a separate client process. Three rounds, alternating, after a warm-up:
 * the median round per side.
 */
import { serverProcess, type ServerProcess } from './server-process.ts'
import { fanOut, histogramLines, socketClients, type SocketClients } from './ws-measure.ts'

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000)
const EVENTS = 30
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

type Round = Awaited<ReturnType<typeof fanOut>> & { cpuPerDelivery: number }

/** One fan-out of `events` events, with the server's CPU µs per delivery. */
async function round(server: ServerProcess, clients: SocketClients, events: number, firstId: number): Promise<Round> {
  const cpu = await server.cpu()
  const result = await fanOut([clients], SOCKETS, events, (data) => server.broadcast(data), firstId)
  return { ...result, cpuPerDelivery: ((await server.cpu()) - cpu) / (SOCKETS * events) }
}

const median = (rounds: Round[], key: 'perSecond' | 'p99' | 'cpuPerDelivery') => [...rounds].sort((a, b) => a[key] - b[key])[Math.floor(rounds.length / 2)]!

export async function rtFanout(): Promise<void> {
  const kiln = await serverProcess('kiln')
  const raw = await serverProcess('raw')
  try {
    // One client process per side: on a 2-core machine a second one competes with the server for the CPU.
    const kilnClients = await socketClients(kiln.url, SOCKETS, 'rt')
    const rawClients = await socketClients(raw.url, SOCKETS, 'raw')
    let id = 0
    const next = (n: number) => (id += n) - n
    // Warm both paths, then alternate so machine noise hits both alike.
    await round(kiln, kilnClients, 5, next(5))
    await round(raw, rawClients, 5, next(5))
    const rounds = { kiln: [] as Round[], raw: [] as Round[] }
    for (let i = 0; i < ROUNDS; i++) {
      rounds.raw.push(await round(raw, rawClients, EVENTS, next(EVENTS)))
      rounds.kiln.push(await round(kiln, kilnClients, EVENTS, next(EVENTS)))
    }
    const k = { perSecond: median(rounds.kiln, 'perSecond'), p99: median(rounds.kiln, 'p99'), cpu: median(rounds.kiln, 'cpuPerDelivery') }
    const r = { perSecond: median(rounds.raw, 'perSecond'), p99: median(rounds.raw, 'p99'), cpu: median(rounds.raw, 'cpuPerDelivery') }
    const ratio = k.perSecond.perSecond / r.perSecond.perSecond
    const verdict = ratio >= 1 && k.p99.p99 <= r.p99.p99 ? 'met' : 'NOT met'
    console.log(
      `P2 rt fan-out to ${SOCKETS} sockets: kiln ${k.perSecond.perSecond} deliveries/s (p99 ${k.p99.p99.toFixed(1)} ms), ` +
        `raw crossws ${r.perSecond.perSecond} deliveries/s (p99 ${r.p99.p99.toFixed(1)} ms), ratio ${ratio.toFixed(2)}  (goal ≥ 1.0 and p99 no worse than raw's: ${verdict})`,
    )
    console.log(
      `  server CPU per delivery: kiln ${k.cpu.cpuPerDelivery.toFixed(2)} µs, raw ${r.cpu.cpuPerDelivery.toFixed(2)} µs (${(k.cpu.cpuPerDelivery / r.cpu.cpuPerDelivery).toFixed(2)}×)`,
    )
    const list = (rs: Round[]) => rs.map((x) => `${x.perSecond}/s p99 ${x.p99.toFixed(0)} ms ${x.cpuPerDelivery.toFixed(2)} µs`).join('; ')
    console.log(`  rounds: kiln ${list(rounds.kiln)}\n          raw ${list(rounds.raw)}`)
    console.log(
      `  latency from publish to receipt (median round), kiln:\n${histogramLines(k.perSecond.histogram).join('\n')}\n  raw crossws:\n${histogramLines(r.perSecond.histogram).join('\n')}`,
    )
    await Promise.all([kilnClients.exit(), rawClients.exit()])
  } finally {
    kiln.exit()
    raw.exit()
  }
}

/**
 * P3: memory per idle socket (connected and subscribed to one channel) held
 * by one rt process, against a bare crossws server holding the same sockets
 * at the same path. Each side runs in a fresh process, measured after a full
 * GC; a socket's cost is the growth over the second half of the sockets. The
 * sockets live in separate client processes (one process may hold at most
 * its open-file limit). Three rounds, the median per side.
 */
import { readFileSync } from 'node:fs'
import { serverProcess } from './server-process.ts'
import { socketClients } from './ws-measure.ts'

const GOAL = 1.05
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
/** Sockets per client process: each holds one file per socket, under this machine's 20,000. */
const PER_CLIENT = 9_500

/** Sockets the server process can hold here: its open-file limit, less a margin for the process's own files. */
function socketBudget(): number {
  const limit = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]
  return Math.min(19_000, Number(limit ?? 20_000) - 500)
}

/** Full GC, a moment for the last handshakes' garbage, another GC: then the reading. */
async function settled(server: Awaited<ReturnType<typeof serverProcess>>) {
  await server.rss()
  await new Promise((resolve) => setTimeout(resolve, 1000))
  return server.rss()
}

/**
 * One server process: its memory with half the sockets and with all of
 * them. The difference over the second half is what a socket costs at the
 * margin, free of what the process keeps from its start and first sockets.
 */
async function measure(mode: 'kiln' | 'raw', sockets: number) {
  const server = await serverProcess(mode)
  try {
    const base = await settled(server)
    const clients = []
    const readings = []
    for (let opened = 0; opened < sockets; opened += PER_CLIENT) {
      clients.push(await socketClients(server.url, Math.min(PER_CLIENT, sockets - opened), mode === 'kiln' ? 'rt' : 'raw'))
      readings.push(await settled(server))
    }
    await Promise.all(clients.map((c) => c.exit()))
    const [half, full] = [readings.at(-2) ?? base, readings.at(-1)!]
    const added = full.sockets - half.sockets
    return {
      held: full.sockets,
      base: base.rss,
      rss: full.rss,
      perSocket: (full.rss - half.rss) / added,
      heapPerSocket: (full.heapUsed + full.external - half.heapUsed - half.external) / added,
    }
  } finally {
    server.exit()
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** docs/realtime.md recommends this for socket-heavy processes: a small young generation keeps idle RSS down. */
const RECOMMENDED_FLAGS = '--max-semi-space-size=2'

export async function rtMemory(): Promise<void> {
  process.env.RT_NODE_FLAGS ??= RECOMMENDED_FLAGS
  const sockets = Number(process.env.BENCH_IDLE_SOCKETS ?? socketBudget())
  const kiln = []
  const raw = []
  for (let round = 0; round < ROUNDS; round++) {
    kiln.push(await measure('kiln', sockets))
    raw.push(await measure('raw', sockets))
  }
  const kb = (bytes: number) => (bytes / 1024).toFixed(2)
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`
  // Judged on what the process retains per socket (V8 heap + external after a full GC): RSS moves with V8's heap sizing
  // by more than the goal's 5% between identical runs, so it is printed beside it.
  const k = median(kiln.map((m) => m.heapPerSocket))
  const r = median(raw.map((m) => m.heapPerSocket))
  const ratio = k / r
  console.log(
    `P3 rt memory per idle socket at ${kiln[0]!.held} sockets (retained: V8 heap + external): kiln ${kb(k)} KB, raw crossws ${kb(r)} KB, ratio ${ratio.toFixed(2)}  ` +
      `(goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
  )
  const rssK = median(kiln.map((m) => m.perSocket))
  const rssR = median(raw.map((m) => m.perSocket))
  console.log(
    `  RSS per socket: kiln ${kb(rssK)} KB, raw ${kb(rssR)} KB (${(rssK / rssR).toFixed(2)}); rounds, retained then RSS: ` +
      `kiln ${kiln.map((m) => `${kb(m.heapPerSocket)}/${kb(m.perSocket)}`).join(', ')}; raw ${raw.map((m) => `${kb(m.heapPerSocket)}/${kb(m.perSocket)}`).join(', ')}`,
  )
  console.log(
    `  process at rest: kiln ${mb(median(kiln.map((m) => m.base)))}, raw ${mb(median(raw.map((m) => m.base)))}; ` +
      `kiln with its sockets ${mb(median(kiln.map((m) => m.rss)))}; per socket is the growth over the last ${PER_CLIENT} sockets; both servers ran with node ${process.env.RT_NODE_FLAGS || '(no flags)'}`,
  )
}

/**
 * P3: memory per idle socket (connected and subscribed to one channel) held
 * by one rt process, against a bare crossws server holding the same sockets.
 * Each side runs in a fresh process, measured after a full GC before and
 * after its sockets connect; the sockets live in separate client processes
 * (one process may hold at most its open-file limit). Three rounds, the
 * median per side.
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

async function measure(mode: 'kiln' | 'raw', sockets: number) {
  const server = await serverProcess(mode)
  try {
    const before = await server.rss()
    const clients = []
    for (let opened = 0; opened < sockets; opened += PER_CLIENT) {
      clients.push(await socketClients(server.url, Math.min(PER_CLIENT, sockets - opened), mode === 'kiln' ? 'rt' : 'raw'))
    }
    // Let the last handshakes' garbage become collectable.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const after = await server.rss()
    await Promise.all(clients.map((c) => c.exit()))
    return {
      held: after.sockets,
      base: before.rss,
      rss: after.rss,
      perSocket: (after.rss - before.rss) / after.sockets,
      heapPerSocket: (after.heapUsed + after.external - before.heapUsed - before.external) / after.sockets,
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
  const k = median(kiln.map((m) => m.perSocket))
  const r = median(raw.map((m) => m.perSocket))
  const ratio = k / r
  console.log(
    `P3 rt memory per idle socket at ${kiln[0]!.held} sockets: kiln ${kb(k)} KB, raw crossws ${kb(r)} KB, ratio ${ratio.toFixed(2)}  ` +
      `(goal ≤ ${GOAL}: ${ratio <= GOAL ? 'met' : 'NOT met'})`,
  )
  console.log(
    `  rounds (RSS KB per socket): kiln ${kiln.map((m) => kb(m.perSocket)).join(', ')}; raw ${raw.map((m) => kb(m.perSocket)).join(', ')}; ` +
      `of which V8 heap + external: kiln ${kb(median(kiln.map((m) => m.heapPerSocket)))}, raw ${kb(median(raw.map((m) => m.heapPerSocket)))}`,
  )
  console.log(
    `  process at rest: kiln ${mb(median(kiln.map((m) => m.base)))}, raw ${mb(median(raw.map((m) => m.base)))}; ` +
      `kiln with its sockets ${mb(median(kiln.map((m) => m.rss)))}; both servers ran with node ${process.env.RT_NODE_FLAGS || '(no flags)'}`,
  )
}

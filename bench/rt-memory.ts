/**
 * P3: memory of idle sockets held by one rt process (each connected and
 * subscribed to one channel), against a bare crossws server holding the same
 * sockets. Reports RSS per 1,000 sockets and the projection at 20,000.
 */
import { readFileSync } from 'node:fs'
import { serverProcess } from './server-process.ts'
import { socketClients } from './ws-measure.ts'

/** Sockets one process can hold here: its open-file limit, less a margin for the process's own files. */
function socketBudget(): number {
  const limit = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]
  return Math.min(20_000, Number(limit ?? 20_000) - 100)
}

async function measure(mode: 'kiln' | 'raw', sockets: number) {
  const server = await serverProcess(mode)
  try {
    const before = await server.rss()
    const half = Math.ceil(sockets / 2)
    const clients = [
      await socketClients(server.url, half, mode === 'kiln' ? 'rt' : 'raw'),
      await socketClients(server.url, sockets - half, mode === 'kiln' ? 'rt' : 'raw'),
    ]
    await new Promise((resolve) => setTimeout(resolve, 500))
    const after = await server.rss()
    await Promise.all(clients.map((c) => c.exit()))
    const perThousand = ((after.rss - before.rss) / after.sockets) * 1000
    return { held: after.sockets, base: before.rss, rss: after.rss, perThousand, at20k: before.rss + perThousand * 20 }
  } finally {
    server.exit()
  }
}

/** docs/realtime.md recommends this for socket-heavy processes: a small young generation keeps idle RSS down. */
const RECOMMENDED_FLAGS = '--max-semi-space-size=2'

export async function rtMemory(): Promise<void> {
  process.env.RT_NODE_FLAGS ??= RECOMMENDED_FLAGS
  const sockets = Number(process.env.BENCH_IDLE_SOCKETS ?? socketBudget())
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`
  const kiln = await measure('kiln', sockets)
  const raw = await measure('raw', sockets)
  const verdict = kiln.at20k <= 250 * 1048576 ? 'met' : 'NOT met'
  console.log(
    `P3 rt idle sockets: kiln held ${kiln.held} at RSS ${mb(kiln.rss)} (${mb(kiln.perThousand)} per 1,000; ${mb(kiln.at20k)} at 20,000), ` +
      `raw crossws ${mb(raw.perThousand)} per 1,000 (process at rest: kiln ${mb(kiln.base)}, raw ${mb(raw.base)}), ratio ${(raw.perThousand / kiln.perThousand).toFixed(2)}  (goal 20,000 sockets ≤ 250 MB: ${verdict})`,
  )
  console.log(`  both servers ran with node ${process.env.RT_NODE_FLAGS || '(no flags)'}`)
  if (kiln.held < 20_000) console.log(`  this machine allows ${sockets + 100} open files per process, so 20,000 is projected from ${kiln.held}`)
}

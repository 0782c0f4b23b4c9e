/**
 * P4: a component update. `POST /comp/update` calling the starter-style
 * counter's `increment` (session, CSRF, signature, checksum, render, new
 * snapshot: the whole path a browser takes), measured twice, every server a
 * real one in this process driven by autocannon from its own process:
 *
 * - P4's line: Kiln on the default file store (the session holds a value, so
 *   each update reads its file) against bare h3 + srvx doing the same work by
 *   hand (bench/comp-same-work.ts lists its steps);
 * - kept for continuity with the earlier figures: Kiln on the memory store
 *   against a bare h3 endpoint that only parses `{count}` and answers count + 1.
 *
 * Every answer of every side must be a 200 (a baseline answering 4xx fast
 * would flatter nobody). Also prints the size of one answer, and of the
 * component client (comp.js) gzipped.
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { gzipSync } from 'node:zlib'
import { H3 } from 'h3'
import { serve } from 'srvx'
import { cannon, type CannonResult } from './autocannon.ts'
import { counterApp } from './counter-app.ts'
import { counterVisit, type CounterVisit } from './counter-visit.ts'
import { sameWorkServer } from './comp-same-work.ts'

type Target = { url: string; body: string; headers: Record<string, string> }

/** The first visit, then one update checked: a 200 whose answer shows the count at 1. */
async function updateTarget(origin: string, label: string): Promise<Target & { answer: string }> {
  const { endpoint, body, headers }: CounterVisit = await counterVisit(await fetch(`${origin}/`))
  const probe = await fetch(`${origin}${endpoint}`, { method: 'POST', headers, body })
  const answer = await probe.text()
  const parsed = probe.status === 200 ? (JSON.parse(answer) as { effects: { html?: string; data: { count?: number } } }) : undefined
  if (!parsed?.effects.html?.includes('<p>1</p>') || parsed.effects.data.count !== 1)
    throw new Error(`P4 ${label}: the update answered ${probe.status}: ${answer.slice(0, 300)}`)
  return { url: `${origin}${endpoint}`, body, headers, answer }
}

async function run(target: Target, label: string, seconds?: number): Promise<CannonResult> {
  const result = await cannon(target.url, { seconds, method: 'POST', body: target.body, headers: target.headers })
  if (result.non2xx || result.errors) throw new Error(`P4 ${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return result
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export async function compUpdate(): Promise<void> {
  const app = await counterApp({ store: 'memory' })
  const fsApp = await counterApp({ store: 'fs' })
  const server = await app.listen({ port: 0 })
  const fsServer = await fsApp.listen({ port: 0 })
  const bare = new H3({ silent: true }).post('/increment', async (event) => {
    const { count } = (await event.req.json()) as { count: number }
    return { count: count + 1 }
  })
  const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1', silent: true })
  await bareServer.ready()
  const same = await sameWorkServer()

  try {
    const targets = {
      kiln: await updateTarget(fsServer.url, 'Kiln (fs store)'),
      same: await updateTarget(same.url, 'same-work baseline'),
      kilnMemory: await updateTarget(server.url, 'Kiln (memory store)'),
      bare: { url: `${new URL(bareServer.url!).origin}/increment`, body: JSON.stringify({ count: 0 }), headers: { 'content-type': 'application/json' } },
    }
    const load = [loadavg()[0]!]
    for (const [label, target] of Object.entries(targets)) await run(target, label, 1)
    const runs: Record<keyof typeof targets, CannonResult[]> = { kiln: [], same: [], kilnMemory: [], bare: [] }
    for (let round = 0; round < 3; round++) {
      for (const label of ['same', 'kiln', 'bare', 'kilnMemory'] as const) runs[label].push(await run(targets[label], label))
    }
    load.push(loadavg()[0]!)
    const line = (kiln: CannonResult[], base: CannonResult[]) => {
      const ratios = kiln.map((k, i) => k.rps / base[i]!.rps)
      const ratio = median(ratios)
      const cpu = (r: CannonResult[]) => median(r.map((x) => x.cpuMicrosPerRequest))
      const rps = (r: CannonResult[]) => median(r.map((x) => x.rps))
      return {
        ratio,
        text: `kiln ${rps(kiln)} req/s (${cpu(kiln)} µs CPU/req), baseline ${rps(base)} req/s (${cpu(base)} µs CPU/req); median ratio ${ratio.toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}); CPU baseline/kiln ${(cpu(base) / cpu(kiln)).toFixed(2)}`,
      }
    }
    const p4 = line(runs.kiln, runs.same)
    const size = Buffer.byteLength(targets.kiln.answer)
    console.log(
      `P4 component update (counter) vs bare h3 doing the same work: ${p4.text} (goal ≥ 0.5: ${p4.ratio >= 0.5 ? 'met' : 'NOT met'}); answer ${size} bytes (goal ≤ 1024: ${size <= 1024 ? 'met' : 'NOT met'}), baseline's ${Buffer.byteLength(targets.same.answer)}; load average ${load.map((l) => l.toFixed(1)).join(' → ')}`,
    )
    console.log(`P4, kept for continuity: the update (memory store) vs a bare h3 increment doing none of its work: ${line(runs.kilnMemory, runs.bare).text}`)
    const client = readFileSync(new URL('../plugins/comp/dist/comp.js', import.meta.url))
    const gzipped = gzipSync(client).length
    console.log(`comp.js: ${client.length} bytes, ${gzipped} gzipped, Alpine excluded (goal ≤ 25 KB gzipped: ${gzipped <= 25 * 1024 ? 'met' : 'NOT met'})`)
  } finally {
    await same.server.close(true)
    await bareServer.close(true)
    await fsApp.close()
    await app.close()
  }
}

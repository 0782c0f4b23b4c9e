/**
 * In-process accounting of one component update (issue 25, P4): CPU µs per
 * request through `app.request()` for bare h3 doing the increment, a `web`
 * route doing the same increment (the web group alone), and
 * `POST /comp/update` calling the counter's `increment`. 16 requests in
 * flight, the lowest of the rounds (interference only adds). Not part of
 * `npm run bench`: `node --conditions=kiln-source --import=tsx bench/comp-phases.ts [rounds] [per round]`.
 * `ONLY=comp` runs one case (for `--cpu-prof`); `SOCKET=comp|web|bare` serves it and drives it with autocannon
 * for `rounds` seconds under the inspector's profiler (tmp/socket-<case>.cpuprofile); `PHASES=1` runs updates one
 * at a time and prints the phases that temporary brackets in the update's code recorded with `phase()`.
 * `STORE=fs` runs Kiln on the file store with a stored session (P4's line); `SOCKET=same` serves the same-work
 * baseline of bench/comp-same-work.ts instead.
 */
import { createHook } from 'node:async_hooks'
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { H3 } from 'h3'
import { serve } from 'srvx'
import { cannon } from './autocannon.ts'
import { counterVisit } from './counter-visit.ts'
import { counterApp } from './counter-app.ts'
import { sameWorkServer } from './comp-same-work.ts'

/** CPU µs of this process now (user + system): time the process spends descheduled on a loaded machine does not count. */
function now(): number {
  const used = process.cpuUsage()
  return used.user + used.system
}

/**
 * Adds the CPU since `t0` to a named phase. The update's code calls it through temporary brackets (not committed):
 * `globalThis.__compPhases` collects them, and `PHASES=1` prints them.
 */
function phase(name: string, t0: number): number {
  const t = now()
  const phases = ((globalThis as { __compPhases?: Map<string, number[]> }).__compPhases ??= new Map())
  const entry = phases.get(name) ?? [0, 0]
  entry[0]! += t - t0
  entry[1]!++
  phases.set(name, entry)
  return now()
}

const rounds = Number(process.argv[2] ?? 7)
const perRound = Number(process.argv[3] ?? 2000)
const app = await counterApp({
  store: process.env.STORE === 'fs' ? 'fs' : 'memory',
  routes: "Route.post('/web-inc', (ctx) => ({ count: (ctx.request.body() as { count: number }).count + 1 }))",
})
const bare = new H3({ silent: true }).post('/increment', async (event) => {
  const { count } = (await event.req.json()) as { count: number }
  return { count: count + 1 }
})

const { endpoint, body, headers } = await counterVisit(await app.request('/'))
const bareBody = JSON.stringify({ count: 0 })

type Case = { name: string; send: () => Response | Promise<Response> }
const cases: Case[] = [
  {
    name: 'bare h3',
    send: () => bare.fetch(new Request('http://127.0.0.1/increment', { method: 'POST', body: bareBody, headers: { 'content-type': 'application/json' } })),
  },
  { name: 'web route, increment', send: () => app.request('/web-inc', { method: 'POST', body: bareBody, headers }) },
  { name: 'comp update', send: () => app.request(endpoint, { method: 'POST', body, headers }) },
]
for (const c of cases) {
  const res = await c.send()
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${text.slice(0, 300)}`)
}

async function round(send: Case['send'], n: number): Promise<number> {
  let left = n
  const start = process.cpuUsage()
  const worker = async () => {
    while (left-- > 0) await (await send()).text()
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  const used = process.cpuUsage(start)
  return (used.user + used.system) / n
}

const g = globalThis as unknown as { __reqStart?: number; __handlerEnd?: number; __compPhases?: Map<string, number[]> }
if (process.env.PHASES) {
  const update = cases[2]!
  for (let i = 0; i < 3000; i++) await (await update.send()).text()
  g.__compPhases?.clear()
  let after = 0
  const n = 5000
  const start = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    g.__reqStart = now()
    const res = await update.send()
    const t = now()
    await res.text()
    after += t - g.__handlerEnd!
  }
  const used = process.cpuUsage(start)
  g.__reqStart = undefined
  for (let i = 0; i < n; i++) phase('Z empty phase (calibration)', now())
  console.log(`sequential: ${((used.user + used.system) / n).toFixed(1)} µs CPU/update; after handler until Response: ${(after / n).toFixed(1)} µs`)
  for (const [name, [total, count]] of [...g.__compPhases!].sort()) console.log(`  ${name.padEnd(44)} ${(total! / count!).toFixed(2)} µs`)
  process.exit(0)
}
if (process.env.PROMISES) {
  // Promises made per request (each one runs AsyncLocalStorage's hooks on Node 20).
  let made = 0
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && made++) })
  for (const c of cases) {
    for (let i = 0; i < 200; i++) await (await c.send()).text()
    hook.enable()
    made = 0
    for (let i = 0; i < 1000; i++) await (await c.send()).text()
    hook.disable()
    console.log(`${c.name.padEnd(24)} ${(made / 1000).toFixed(1)} promises/req`)
  }
  process.exit(0)
}
if (process.env.SOCKET) {
  // Over a socket, autocannon in its own process; the inspector's profiler runs only during the measured run.
  const server = await app.listen({ port: 0 })
  const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1', silent: true })
  await bareServer.ready()
  const same = await sameWorkServer()
  const sameVisit = await counterVisit(await fetch(`${same.url}/`))
  const targets: Record<string, [string, string, Record<string, string>]> = {
    bare: [`${new URL(bareServer.url!).origin}/increment`, bareBody, { 'content-type': 'application/json' }],
    web: [`${server.url}/web-inc`, bareBody, headers],
    comp: [`${server.url}${endpoint}`, body, headers],
    same: [`${same.url}${sameVisit.endpoint}`, sameVisit.body, sameVisit.headers],
  }
  const [url, sent, sentHeaders] = targets[process.env.SOCKET]!
  await cannon(url, { seconds: 2, method: 'POST', body: sent, headers: sentHeaders })
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 100) })
  await session.post('Profiler.start')
  const run = await cannon(url, { seconds: rounds, method: 'POST', body: sent, headers: sentHeaders })
  const { profile } = await session.post('Profiler.stop')
  writeFileSync(`tmp/socket-${process.env.SOCKET}${process.env.STORE ? `-${process.env.STORE}` : ''}.cpuprofile`, JSON.stringify(profile))
  console.log(`${process.env.SOCKET}: ${run.rps} req/s, ${run.cpuMicrosPerRequest} µs CPU/req, non2xx ${run.non2xx}`)
  await same.server.close(true)
  await bareServer.close(true)
  await app.close()
  process.exit(0)
}
if (process.env.ONLY) {
  const only = cases.find((c) => c.name.startsWith(process.env.ONLY!))!
  await round(only.send, perRound)
  const us = await round(only.send, perRound * rounds)
  console.log(`${only.name}: ${us.toFixed(1)} µs CPU/req`)
  await app.close()
  process.exit(0)
}
for (const c of cases) await round(c.send, perRound / 2)
const best = new Map<string, number>()
for (let r = 0; r < rounds; r++) {
  for (const c of cases) {
    const us = await round(c.send, perRound)
    best.set(c.name, Math.min(best.get(c.name) ?? Infinity, us))
  }
}
for (const [name, us] of best) console.log(`${name.padEnd(24)} ${us.toFixed(1)} µs CPU/req (lowest of ${rounds})`)
await app.close()
process.exit(0)

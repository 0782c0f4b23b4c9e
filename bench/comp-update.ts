/**
 * P4: a component update. `POST /comp/update` calling the starter-style
 * counter's `increment` (session, CSRF, signature, checksum, render, new
 * snapshot: the whole path a browser takes) against a bare h3 JSON endpoint
 * doing the same increment, both real servers in this process, driven by
 * autocannon from its own process. Also prints the size of one answer, and
 * of the component client (comp.js) gzipped.
 */
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { H3 } from 'h3'
import { serve } from 'srvx'
import { createApp } from '../core/index.ts'
import { comp } from '../plugins/comp/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { cannon } from './autocannon.ts'
import { counterVisit } from './counter-visit.ts'

const files = {
  'app/components/counter.ts':
    "import { Component } from 'kiln-framework/comp'\nexport default class Counter extends Component {\n  count = 0\n  increment() { this.count++ }\n}\n",
  'resources/views/components/counter.hbs': '<section class="counter"><p>{{count}}</p><button wire:click="increment">+</button></section>',
  'resources/views/page.hbs': "<!doctype html><html><head>@compScripts</head><body>@comp('counter')</body></html>",
  'routes/web.ts': "import { defineRoutes, view } from 'kiln-framework'\nexport default defineRoutes((Route) => { Route.get('/', () => view('page')) })\n",
}

export async function compUpdate(): Promise<void> {
  const app = await createApp({
    root: tempApp(files),
    env: { APP_ENV: 'production', APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}` },
    plugins: [comp()],
    config: { session: { driver: 'memory' }, logging: { channels: [] } },
  })
  const server = await app.listen({ port: 0 })
  const bare = new H3().post('/increment', async (event) => {
    const { count } = (await event.req.json()) as { count: number }
    return { count: count + 1 }
  })
  const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1', silent: true })
  await bareServer.ready()

  try {
    const { endpoint, body, headers } = await counterVisit(await fetch(`${server.url}/`))
    const probe = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers, body })
    const answer = await probe.text()
    if (probe.status !== 200) throw new Error(`P4: the update answered ${probe.status}: ${answer.slice(0, 300)}`)

    const kilnUrl = `${server.url}${endpoint}`
    const bareUrl = `${new URL(bareServer.url!).origin}/increment`
    const bareBody = JSON.stringify({ count: 0 })
    await cannon(kilnUrl, { seconds: 1, method: 'POST', body, headers })
    await cannon(bareUrl, { seconds: 1, method: 'POST', body: bareBody, headers: { 'content-type': 'application/json' } })
    const ratios: number[] = []
    let last = { kiln: 0, bare: 0, kilnCpu: 0, bareCpu: 0 }
    for (let round = 0; round < 3; round++) {
      const bareRun = await cannon(bareUrl, { method: 'POST', body: bareBody, headers: { 'content-type': 'application/json' } })
      const kilnRun = await cannon(kilnUrl, { method: 'POST', body, headers })
      if (kilnRun.non2xx || kilnRun.errors) throw new Error(`P4: ${kilnRun.non2xx} non-2xx answers, ${kilnRun.errors} errors`)
      ratios.push(kilnRun.rps / bareRun.rps)
      last = { kiln: kilnRun.rps, bare: bareRun.rps, kilnCpu: kilnRun.cpuMicrosPerRequest, bareCpu: bareRun.cpuMicrosPerRequest }
    }
    const ratio = ratios.sort((a, b) => a - b)[1]!
    const size = Buffer.byteLength(answer)
    console.log(
      `P4 component update (counter): kiln ${last.kiln} req/s (${last.kilnCpu} µs CPU/req), bare h3 ${last.bare} req/s (${last.bareCpu} µs CPU/req), median ratio ${ratio.toFixed(2)} (goal ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'}); answer ${size} bytes (goal ≤ 1024: ${size <= 1024 ? 'met' : 'NOT met'})`,
    )
    const client = readFileSync(new URL('../plugins/comp/dist/comp.js', import.meta.url))
    const gzipped = gzipSync(client).length
    console.log(`comp.js: ${client.length} bytes, ${gzipped} gzipped, Alpine excluded (goal ≤ 25 KB gzipped: ${gzipped <= 25 * 1024 ? 'met' : 'NOT met'})`)
  } finally {
    await bareServer.close(true)
    await app.close()
  }
}

/**
 * `kiln serve --workers`: the JSON route (`api` group) and the `web` route
 * (cookies, the session on the default fs store, CSRF) for a returning
 * browser, served by the real `kiln serve --workers=1` (one process, as
 * without the flag) and `--workers=2` (a primary and two workers on
 * node:cluster), both started at once and driven in turn by autocannon
 * from its own process, three rounds after a warm-up; each line is the
 * median round by requests per second. The CPU per request is that of the
 * whole process tree (the primary, which accepts the connections, and its
 * workers), read from /proc on Linux, so it is printed only there.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { generateAppKey } from '../core/index.ts'
import { tempApp } from '../tests/fixtures/temp-app.ts'
import { cannon, type CannonResult } from './autocannon.ts'
import { firstVisitCookies } from './measure.ts'

const KILN = fileURLToPath(new URL('../bin/kiln.js', import.meta.url))
/** Clock ticks per second of /proc's times: 100 on Linux everywhere Node runs. */
const TICKS = 100

interface Served {
  workers: number
  url: string
  child: ChildProcess
}

export async function serveWorkers(): Promise<void> {
  const root = benchApp()
  const servers = await Promise.all([1, 2].map((workers) => serve(root, workers)))
  try {
    const cookies = new Map<Served, string>()
    for (const server of servers) cookies.set(server, await firstVisitCookies(`${server.url}/web-bench`))
    const lines = [
      { name: 'JSON', path: '/bench', headers: () => ({}) },
      { name: 'web', path: '/web-bench', headers: (server: Served) => ({ cookie: cookies.get(server)! }) },
    ]
    console.log(
      'serve --workers: the JSON and web routes from `kiln serve --workers=1` (one process) and `--workers=2` (primary + 2 workers); CPU summed over the primary and its workers',
    )
    for (const line of lines) {
      for (const server of servers) await cannon(`${server.url}${line.path}`, { seconds: 1, headers: line.headers(server) })
      const rounds = new Map<Served, Array<CannonResult & { cpu: number | undefined }>>(servers.map((server) => [server, []]))
      for (let round = 0; round < 3; round++) {
        for (const server of servers) {
          const before = treeCpuMicros(server.child.pid!)
          const result = await cannon(`${server.url}${line.path}`, { seconds: 3, headers: line.headers(server) })
          const after = treeCpuMicros(server.child.pid!)
          if (result.non2xx || result.errors) throw new Error(`${server.url}${line.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
          const cpu = before === undefined || after === undefined ? undefined : Math.round((after - before) / result.requests)
          rounds.get(server)!.push({ ...result, cpu })
        }
      }
      const medians = servers.map((server) => rounds.get(server)!.sort((a, b) => a.rps - b.rps)[1]!)
      servers.forEach((server, i) => {
        const m = medians[i]!
        const cpu = m.cpu === undefined ? 'CPU not read (no /proc)' : `${m.cpu} µs CPU/req`
        const ratio = i === 0 ? '' : `  (${(m.rps / medians[0]!.rps).toFixed(2)}× the requests per second of one)`
        console.log(`  ${line.name}, --workers=${server.workers}: ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, ${cpu}${ratio}`)
      })
    }
  } finally {
    await Promise.all(servers.map(stop))
  }
}

/** An app whose stores every worker shares: sessions on files (the default), rate limits in a Redis store (never used here). */
function benchApp(): string {
  return tempApp({
    '.env': `APP_ENV=production\nAPP_DEBUG=false\nAPP_URL=http://127.0.0.1\nAPP_KEY=${generateAppKey()}\n`,
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'config/storage.ts': `import { defineStorageConfig } from 'kiln-framework'
export default defineStorageConfig({
  stores: { local: { driver: 'fs', base: 'storage/app' }, shared: { driver: 'redis', url: 'redis://127.0.0.1:6379', prefix: 'bench_${randomBytes(4).toString('hex')}' } },
})
`,
    'config/http.ts': "import { defineHttpConfig } from 'kiln-framework'\nexport default defineHttpConfig({ throttle_store: 'shared' })\n",
    'routes/api.ts': `import { defineRoutes } from 'kiln-framework'
const payload = { id: 1, name: 'Test User', email: 'test@example.com' }
export default defineRoutes((Route) => {
  Route.get('/bench', () => payload)
})
`,
    'routes/web.ts': `import { defineRoutes } from 'kiln-framework'
const payload = { id: 1, name: 'Test User', email: 'test@example.com' }
export default defineRoutes((Route) => {
  Route.get('/web-bench', () => payload)
})
`,
  })
}

/** `kiln serve --port=0 --workers=N` in `root`, once it prints where it serves. */
function serve(root: string, workers: number): Promise<Served> {
  const child = spawn(process.execPath, [KILN, 'serve', '--port=0', `--workers=${workers}`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += String(chunk)
      const match = /on (http:\/\/[^\s/]+)/.exec(output)
      if (match) resolve({ workers, url: match[1]!, child })
    })
    child.once('exit', (code) => reject(new Error(`kiln serve --workers=${workers} exited (${code}): ${output}`)))
  })
}

function stop(server: Served): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve()
    server.child.once('exit', () => resolve())
    server.child.kill('SIGTERM')
  })
}

/** CPU µs (user + system) used so far by `pid` and its child processes, from /proc; undefined off Linux. */
function treeCpuMicros(pid: number): number | undefined {
  try {
    const stats = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((name) => {
        try {
          // After the command name (which may hold spaces): ppid is the 2nd field, utime and stime the 12th and 13th.
          return readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')
        } catch {
          return undefined
        }
      })
    const own = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    const tree = [own, ...stats.filter((fields) => fields?.[1] === String(pid))] as string[][]
    return tree.reduce((sum, fields) => sum + ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS, 0)
  } catch {
    return undefined
  }
}

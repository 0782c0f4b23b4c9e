import test from 'ava'
import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { generateAppKey } from '../../../core/index.ts'
import { kilnServe } from '../../fixtures/kiln-serve.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { starterCopy } from './generators/generator-fixtures.ts'
import { BIN, bin, STACK_FRAME } from './cli-harness.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/**
 * An app whose every store can be shared: sessions on files (the default),
 * rate limits in a Redis store of its own prefix. `/pid` says which process
 * answered; `/slow` writes `entered` beside the app and answers once the test
 * writes `release`.
 */
function sharedApp(files: Record<string, string> = {}): string {
  return tempApp({
    // A production app (config/app.ts sets no env): it needs its key and its address.
    '.env': `APP_KEY=${generateAppKey()}\nAPP_URL=http://127.0.0.1:3000\n`,
    'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n",
    'config/storage.ts': `import { defineStorageConfig } from 'kiln-framework'
export default defineStorageConfig({
  stores: { local: { driver: 'fs', base: 'storage/app' }, shared: { driver: 'redis', url: '${REDIS_URL}', prefix: 'kiln_test_${randomBytes(4).toString('hex')}' } },
})
`,
    'config/http.ts': "import { defineHttpConfig } from 'kiln-framework'\nexport default defineHttpConfig({ throttle_store: 'shared' })\n",
    'routes/api.ts': `import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineRoutes } from 'kiln-framework'
export default defineRoutes((Route) => {
  Route.get('/pid', () => ({ pid: process.pid }))
  Route.get('/slow', async () => {
    writeFileSync(join(process.cwd(), 'entered'), '')
    while (!existsSync(join(process.cwd(), 'release'))) await new Promise((resolve) => setTimeout(resolve, 20))
    return { pid: process.pid, done: true }
  })
})
`,
    ...files,
  })
}

/** A GET on a connection of its own: the workers share connections, not requests, so each request must open one. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk) => (body += String(chunk)))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
      .on('error', reject)
      .end()
  })
}

async function pidOf(url: string): Promise<number> {
  const { status, body } = await get(`${url}/pid`)
  if (status !== 200) throw new Error(`GET /pid answered ${status}: ${body}`)
  return (JSON.parse(body) as { pid: number }).pid
}

/**
 * Asks until `count` different processes (none of `exclude`) have answered;
 * every answer must be a 200. A worker still booting joins in its own time:
 * the test's timeout bounds the wait.
 */
async function distinctPids(url: string, count: number, exclude: ReadonlySet<number> = new Set()): Promise<Set<number>> {
  const seen = new Set<number>()
  while (seen.size < count) {
    const pid = await pidOf(url)
    if (!exclude.has(pid)) seen.add(pid)
    else await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return seen
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20))
}

test('kiln serve --workers=2: two processes answer on one port, with one serving line naming them', async (t) => {
  t.timeout(60_000)
  const server = await kilnServe(t, sharedApp(), {}, ['--workers=2'])
  const pids = await distinctPids(server.url, 2)
  t.is(pids.size, 2, 'two worker processes answered')
  const lines = server.output().split('\n')
  t.deepEqual(
    lines.filter((line) => line.startsWith('Serving')),
    [`Serving Kiln on ${server.url}/ with 2 workers`],
  )
})

test('--workers=1 is the one process of kiln serve without the flag: no primary, the usual serving line', async (t) => {
  t.timeout(60_000)
  const server = await kilnServe(t, sharedApp(), {}, ['--workers=1'])
  t.is(await pidOf(server.url), server.pid, 'the process started answers itself')
  t.true(server.output().includes(`Serving Kiln on ${server.url}/\n`))
  server.kill('SIGTERM')
  t.is(await server.exited, 0)
})

test('a worker killed with SIGKILL is replaced, and requests keep being answered', async (t) => {
  t.timeout(60_000)
  const server = await kilnServe(t, sharedApp(), {}, ['--workers=2'])
  const first = await distinctPids(server.url, 2)
  const [victim] = first
  process.kill(victim!, 'SIGKILL')
  await until(() => server.output().includes(`Worker ${victim} stopped (signal SIGKILL); starting another.`))
  // The survivor answers meanwhile; the replacement joins it.
  const [fresh] = await distinctPids(server.url, 1, first)
  t.false(first.has(fresh!), 'a new worker answers')
  t.is((await distinctPids(server.url, 2)).size, 2, 'two workers serve again')
})

test('SIGTERM to the primary drains the workers: the request in flight completes with 200, then the primary exits 0', async (t) => {
  t.timeout(60_000)
  const root = sharedApp()
  const server = await kilnServe(t, root, {}, ['--workers=2'])
  const slow = get(`${server.url}/slow`)
  await until(() => existsSync(join(root, 'entered')))
  server.kill('SIGTERM')
  await until(() => server.output().includes('Shutting down...'))
  writeFileSync(join(root, 'release'), '')
  const answer = await slow
  t.is(answer.status, 200)
  t.like(JSON.parse(answer.body), { done: true })
  t.is(await server.exited, 0)
  await t.throwsAsync(get(`${server.url}/pid`), undefined, 'nothing listens any more')
})

test('--workers=2 over stores kept in one process: exit 1, naming each store and its setting, in one message', async (t) => {
  t.timeout(60_000)
  const root = starterCopy()
  const env = {
    APP_KEY: generateAppKey(),
    APP_ENV: 'test',
    SESSION_DRIVER: 'memory',
    CACHE_STORE: 'memory',
    THROTTLE_STORE: 'memory',
    UPLOADS_STORE: 'memory',
    TOK_CACHE: 'true',
    TOK_CACHE_REDIS: '',
    BROADCAST_CONNECTION: 'rt',
    RT_SCALING: 'false',
  }
  const { code, stdout, stderr } = await bin(['serve', '--port=0', '--workers=2'], root, env)
  t.is(code, 1)
  t.notRegex(stdout, /Serving/)
  t.notRegex(stderr, STACK_FRAME)
  const expected: Array<[RegExp, RegExp]> = [
    [/sessions, on the "memory" store/, /SESSION_DRIVER=redis or fs/],
    [/the cache store \(config\/storage\.ts `stores\.cache`, memory\)/, /CACHE_STORE=redis/],
    [/rate limits .*counted in memory/, /`throttle_store`.*THROTTLE_STORE=redis/],
    [/component uploads' temporary store \(config\/storage\.ts `stores\.tmp`, memory\)/, /UPLOADS_STORE=redis/],
    [/component downloads' store \(config\/storage\.ts `stores\.tmp`, memory\)/, /UPLOADS_STORE=redis/],
    [/the verified-token cache/, /TOK_CACHE_REDIS/],
    [/broadcasting on the in-process websocket server \(connection "rt"\)/, /scaling\.enabled.*RT_SCALING=true/],
  ]
  const lines = stderr.split('\n').filter((line) => line.startsWith('  - '))
  t.is(lines.length, expected.length, stderr)
  for (const [what, setting] of expected) {
    const line = lines.find((text) => what.test(text))
    t.truthy(line, `${what} named`)
    t.regex(line ?? '', setting)
  }
  t.regex(stderr, /^kiln serve --workers=2 refuses to start\./m)
  t.regex(stderr, /Files \(fs\) are shared by the processes of one machine/)
})

test("a plugin's own process-local state is refused too: the registry is the kernel's, plugins declare in it", async (t) => {
  t.timeout(60_000)
  const root = sharedApp({
    'config/app.ts': `import { defineConfig, definePlugin } from 'kiln-framework'
const counter = definePlugin({
  name: 'visit-counter',
  boot(app) {
    app.service('processState').declare({ what: 'the visit counter (in memory)', scope: 'process', setting: 'set COUNTER_STORE=redis' })
  },
})
export default defineConfig({ plugins: [counter] })
`,
  })
  const { code, stderr } = await bin(['serve', '--port=0', '--workers=2'], root)
  t.is(code, 1)
  t.regex(stderr, /^ {2}- the visit counter \(in memory\): set COUNTER_STORE=redis$/m)
  t.notRegex(stderr, /sessions|rate limits/, 'the shared stores are not named')
})

test('bad --workers values: a CLI error with exit code 1, no stack', async (t) => {
  t.timeout(60_000)
  const root = sharedApp()
  for (const value of ['0', 'abc', '-1', '1.5']) {
    const { code, stdout, stderr } = await bin(['serve', '--port=0', `--workers=${value}`], root)
    t.is(code, 1, value)
    t.regex(stderr, new RegExp(`--workers takes a number of processes \\(1 or more\\) or "auto" \\(one per core\\), got "${value.replace('.', '\\.')}"`), value)
    t.notRegex(stderr, STACK_FRAME)
    t.notRegex(stdout, /Serving/)
  }
})

test('workers that die before they serve, again and again: the primary gives up with exit code 1 and says why', async (t) => {
  t.timeout(60_000)
  const root = sharedApp({
    'routes/web.ts': `import cluster from 'node:cluster'
import { defineRoutes } from 'kiln-framework'
export default defineRoutes(() => {
  if (cluster.isWorker) throw new Error('the worker cannot boot')
})
`,
  })
  const { code, stdout, stderr } = await bin(['serve', '--port=0', '--workers=2'], root)
  t.is(code, 1)
  t.notRegex(stdout, /Serving/)
  t.regex(stderr, /did not boot: the worker cannot boot/)
  t.regex(stderr, /3 workers in a row stopped before they could serve \(the last with exit code 1\): giving up\./)
})

test('--workers=2 on a port in use: the one message of `kiln serve`, once, exit code 1', async (t) => {
  t.timeout(60_000)
  const holder: Server = createServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())))
  const port = (holder.address() as { port: number }).port
  const { code, stderr } = await bin(['serve', `--port=${port}`, '--workers=2'], sharedApp())
  t.is(code, 1)
  t.is(stderr.match(/is already in use/g)?.length, 1, stderr)
  t.regex(stderr, new RegExp(`kiln serve --port=${port + 1}`))
})

test('the starter switched to Redis by its environment alone serves with --workers=2, and drains on SIGTERM', async (t) => {
  t.timeout(90_000)
  const name = `kiln_workers_${randomBytes(4).toString('hex')}`
  const env = {
    APP_NAME: name,
    APP_KEY: generateAppKey(),
    APP_ENV: 'test',
    REDIS_URL,
    SESSION_DRIVER: 'redis',
    CACHE_STORE: 'redis',
    THROTTLE_STORE: 'redis',
    UPLOADS_STORE: 'redis',
    TOK_CACHE: 'true',
    TOK_CACHE_REDIS: REDIS_URL,
    BROADCAST_CONNECTION: 'rt',
    RT_SCALING: 'true',
  }
  const server = await kilnServe(t, starterCopy(), env, ['--workers=2'])
  t.regex(server.output(), new RegExp(`Serving ${name} on ${server.url}/ with 2 workers`))
  for (let i = 0; i < 4; i++) t.is((await get(`${server.url}/login`)).status, 200)
  server.kill('SIGTERM')
  t.is(await server.exited, 0)
})

/** A node:cluster primary of another tool (pm2's cluster mode) running `bin/kiln.js ...args` as its two workers. */
function foreignCluster(t: { teardown(fn: () => unknown): void }, root: string, args: string[]) {
  const script = `import cluster from 'node:cluster'
cluster.setupPrimary({ exec: ${JSON.stringify(BIN)}, args: ${JSON.stringify(args)} })
let exited = 0
for (let i = 0; i < 2; i++)
  cluster.fork().on('exit', (code) => {
    console.log('worker exit ' + code)
    if (++exited === 2) process.exit(0)
  })
`
  writeFileSync(join(root, 'foreign-primary.mjs'), script)
  const child = spawn(process.execPath, ['foreign-primary.mjs'], { cwd: root })
  t.teardown(() => void child.kill('SIGKILL'))
  let output = ''
  child.stdout.on('data', (chunk) => (output += String(chunk)))
  child.stderr.on('data', (chunk) => (output += String(chunk)))
  return { output: () => output, exited: new Promise((resolve) => child.once('exit', resolve)) }
}

test("kiln serve as the workers of another cluster (pm2's cluster mode) shares the port, one process each", async (t) => {
  t.timeout(60_000)
  const cluster = foreignCluster(t, sharedApp(), ['serve', '--port=0'])
  let ended = false
  void cluster.exited.then(() => (ended = true))
  // Both serving, or the cluster gone (its workers could not boot): the test fails then, with their output, not by its timeout.
  await until(() => ended || (cluster.output().match(/Serving Kiln on/g)?.length ?? 0) === 2)
  t.false(ended, cluster.output())
  const urls = [...cluster.output().matchAll(/Serving Kiln on (http:\/\/[^\s/]+)/g)].map((match) => match[1]!)
  t.is(urls[0], urls[1], 'both listen on the one port the primary holds')
  t.is((await distinctPids(urls[0]!, 2)).size, 2)
})

test("--workers inside another cluster's worker: a CLI error, since a worker cannot start workers", async (t) => {
  t.timeout(60_000)
  const cluster = foreignCluster(t, sharedApp(), ['serve', '--port=0', '--workers=2'])
  await cluster.exited
  t.is(cluster.output().match(/kiln serve --workers cannot start workers from a node:cluster worker/g)?.length, 2)
  t.is(cluster.output().match(/worker exit 1/g)?.length, 2)
})

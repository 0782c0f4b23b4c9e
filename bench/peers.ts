/**
 * `npm run bench -- peers`: Kiln against AdonisJS 7 in the same run, on the
 * same three routes (bench/peers/kiln-app.ts, bench/peers/adonis-app.ts):
 * a JSON route, the same behind a personal access token, and the same in
 * the session + CSRF stack, the last both cookie-less (a new session each
 * request) and with a session cookie. Both servers are real apps started as
 * their users start them (`kiln serve`; AdonisJS's `bin/server.js` on
 * plain node), each in its own process with a preload that reports its CPU
 * time over IPC (bench/peers/cpu-probe.mjs); autocannon drives them from a
 * third process with the same settings, the token line with the same number
 * of users' tokens in turn. Prints req/s, server CPU µs per request and cold
 * start (spawn to the first 200, median of five) side by side, with ratios
 * where ≥ 1 means Kiln is ahead.
 *
 * AdonisJS is installed from the npm registry into a scratch folder outside
 * the package (`PEERS_DIR`, else `<tmpdir>/kiln-bench-peers`) the first time,
 * with its lockfile kept there, and reused after. `npm run bench` alone
 * skips this bench: it needs the network once and takes minutes.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cleanEnv, run } from '../tests/cli-new/run.ts'
import { freePort } from '../tests/fixtures/redis-server.ts'
import { cannon, type CannonResult } from './autocannon.ts'
import { ADONIS_DEPENDENCIES, adonisFiles, adonisPackageJson } from './peers/adonis-app.ts'
import { kilnFiles } from './peers/kiln-app.ts'
import { buildApp, packKiln, productionEnv } from './packed-app.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SOURCE_KILN = join(ROOT, 'bin', 'kiln.js')
const PROBE = pathToFileURL(fileURLToPath(new URL('./peers/cpu-probe.mjs', import.meta.url))).href
/** `PEERS_KILN=source`: inside the repository (gitignored tmp/), so the app resolves `kiln-framework` by self-reference. */
const SOURCE_APP = join(ROOT, 'tmp', 'bench-peers-kiln')
const TOKENS = 64
const CONNECTIONS = 32
const SECONDS = 3
const ROUNDS = 3
const STARTS = 5

/** Where AdonisJS is installed: `PEERS_DIR`, else `<tmpdir>/kiln-bench-peers`. */
export const peersDir = (): string => process.env.PEERS_DIR ?? join(tmpdir(), 'kiln-bench-peers')

export async function peers(): Promise<void> {
  const adonisRoot = peersDir()
  try {
    await installAdonis(adonisRoot)
  } catch (error) {
    console.log(`peers skipped: AdonisJS could not be installed into ${adonisRoot}: ${(error as Error).message.split('\n')[0]}`)
    return
  }
  const adonisEnv = cleanEnv({ NODE_ENV: 'production', HOST: '127.0.0.1', PEERS_DB: join(adonisRoot, 'tmp', 'bench.sqlite3') })
  delete adonisEnv.NODE_OPTIONS
  const adonisTokens = await seedAdonis(adonisRoot, adonisEnv)
  const { kiln: kilnBin, root: kilnRoot, cleanup } = await kilnApp(adonisRoot)
  try {
    const kilnEnv = productionEnv({ PEERS_DB: join(kilnRoot, 'database', 'bench.sqlite'), PEERS_TOKENS: join(kilnRoot, 'tokens.json') })
    const kilnTokens = await seedKiln(kilnBin, kilnRoot, kilnEnv)
    await compare(adonisRoot, adonisEnv, adonisTokens, kilnBin, kilnRoot, kilnEnv, kilnTokens)
  } finally {
    cleanup()
  }
}

/**
 * The Kiln side as AdonisJS's side runs: compiled JavaScript on plain node. By default Kiln is packed from the
 * clone and the app built with `kiln build` and installed with `--omit=dev` (a few minutes: npm installs twice);
 * `PEERS_KILN=source` runs the clone's TypeScript through tsx instead, quicker to set up but slower to start.
 */
async function kilnApp(scratch: string): Promise<{ kiln: string; root: string; cleanup(): void }> {
  if (process.env.PEERS_KILN === 'source') {
    rmSync(SOURCE_APP, { recursive: true, force: true })
    writeFiles(SOURCE_APP, kilnFiles(`base64:${randomBytes(32).toString('base64')}`, TOKENS))
    return { kiln: SOURCE_KILN, root: SOURCE_APP, cleanup: () => {} }
  }
  const work = join(scratch, 'kiln')
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  console.log('peers: packing Kiln and building its app (kiln build, --omit=dev)...')
  const built = await buildApp(work, await packKiln(work), 'peers-kiln', kilnFiles(`base64:${randomBytes(32).toString('base64')}`, TOKENS))
  return { ...built, cleanup: () => rmSync(work, { recursive: true, force: true }) }
}

async function compare(
  adonisRoot: string,
  adonisEnv: NodeJS.ProcessEnv,
  adonisTokens: string[],
  kilnBin: string,
  kilnRoot: string,
  kilnEnv: NodeJS.ProcessEnv,
  kilnTokens: string[],
): Promise<void> {
  const load = loadavg()

  const kiln = await startServer(kilnBin, ['serve'], kilnRoot, kilnEnv)
  let adonis: PeerServer | undefined
  const lines: Line[] = []
  try {
    adonis = await startServer(join(adonisRoot, 'bin', 'server.js'), [], adonisRoot, adonisEnv)
    const bearer = (tokens: string[]) => tokens.map((token) => ({ authorization: `Bearer ${token}`, accept: 'application/json' }))
    lines.push(
      await line(
        'JSON route',
        { server: kiln, path: '/peers/open', headerSets: bearer(kilnTokens) },
        { server: adonis, path: '/peers/open', headerSets: bearer(adonisTokens) },
      ),
      await line(
        'the same behind an access token',
        { server: kiln, path: '/peers/token', headerSets: bearer(kilnTokens) },
        { server: adonis, path: '/peers/token', headerSets: bearer(adonisTokens) },
      ),
      await line('session + CSRF, cookie-less GET (a new session each)', { server: kiln, path: '/peers/web' }, { server: adonis, path: '/peers/web' }),
      await line(
        'session + CSRF, GET with the session cookie',
        { server: kiln, path: '/peers/web', headers: { cookie: await sessionCookie(kiln.url + '/peers/web') } },
        { server: adonis, path: '/peers/web', headers: { cookie: await sessionCookie(adonis.url + '/peers/web') } },
      ),
    )
  } finally {
    await kiln.stop()
    await adonis?.stop()
  }

  const kilnStarts: StartTime[] = []
  const adonisStarts: StartTime[] = []
  for (let i = 0; i < STARTS; i++) {
    adonisStarts.push(await coldStart(join(adonisRoot, 'bin', 'server.js'), [], adonisRoot, adonisEnv))
    kilnStarts.push(await coldStart(kilnBin, ['serve'], kilnRoot, kilnEnv))
  }
  const starts = (times: StartTime[]) => ({ wall: median(times.map((time) => time.wall)), cpu: median(times.map((time) => time.cpu)) })
  printTable(adonisRoot, lines, { kiln: starts(kilnStarts), adonis: starts(adonisStarts) }, load)
}

/** Writes the scratch package and runs `npm install` there when AdonisJS is missing or the wanted versions changed. */
async function installAdonis(root: string): Promise<void> {
  mkdirSync(root, { recursive: true })
  const manifest = join(root, 'package.json')
  const wanted = adonisPackageJson()
  const changed = !existsSync(manifest) || readFileSync(manifest, 'utf8') !== wanted
  if (changed) writeFileSync(manifest, wanted)
  if (changed || !existsSync(join(root, 'node_modules', '@adonisjs', 'core', 'package.json'))) {
    console.log(`peers: installing AdonisJS into ${root} (once; the lockfile stays there)...`)
    const { code, stderr } = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, env: cleanEnv() })
    if (code !== 0) throw new Error(`npm install failed: ${stderr.slice(-500)}`)
  }
  writeFiles(root, adonisFiles(randomBytes(24).toString('base64url'), TOKENS))
}

async function seedAdonis(root: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  rmSync(env.PEERS_DB!, { force: true })
  mkdirSync(dirname(env.PEERS_DB!), { recursive: true })
  const { code, stdout, stderr } = await run(process.execPath, ['bin/seed.js'], { cwd: root, env })
  if (code !== 0) throw new Error(`peers: seeding the AdonisJS app failed: ${stderr.slice(0, 800)}`)
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[]
}

async function seedKiln(kilnBin: string, kilnRoot: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  mkdirSync(dirname(env.PEERS_DB!), { recursive: true })
  for (const args of [
    ['migrate', '--force'],
    ['db:seed', '--force'],
  ]) {
    const { code, stderr } = await run(process.execPath, [kilnBin, ...args], { cwd: kilnRoot, env })
    if (code !== 0) throw new Error(`peers: kiln ${args[0]} failed: ${stderr.slice(0, 800)}`)
  }
  return JSON.parse(readFileSync(env.PEERS_TOKENS!, 'utf8')) as string[]
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

/** The middle value. */
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** A cold start: wall-clock ms from spawn to the first 200, and the CPU ms the process used until then (NaN off Linux). */
interface StartTime {
  wall: number
  cpu: number
}

/** CPU ms (user + system) a running process has used, from /proc/PID/stat (clock ticks of 10 ms); NaN where it is missing. */
function cpuMillisOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return NaN
  }
}

/** Spawns `script` on a free port, as its users start it (no CPU probe), and times it to its first 200 on `/peers/open`; then stops it. */
async function coldStart(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<StartTime> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += String(chunk)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`peers: ${script} exited before answering: ${stderr.slice(0, 800)}`)
      const ok = await fetch(`http://127.0.0.1:${port}/peers/open`).then(
        (res) => res.status === 200,
        () => false,
      )
      if (ok) return { wall: performance.now() - started, cpu: cpuMillisOf(child.pid!) }
      if (performance.now() - started > 60_000) throw new Error(`peers: ${script}: no 200 within 60 s: ${stderr.slice(0, 800)}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/** A server of the bench, in its own process. */
interface PeerServer {
  url: string
  /** CPU time (user + system, µs) the process has used so far. */
  cpu(): Promise<number>
  stop(): Promise<void>
}

/** Forks `script` with the CPU probe preloaded, on a free port, and waits for a 200 on `/peers/open`. */
async function startServer(script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<PeerServer> {
  const port = await freePort()
  const child: ChildProcess = fork(script, args, {
    cwd,
    env: { ...env, PORT: String(port) },
    execArgv: ['--import', PROBE],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const server: PeerServer = {
    url,
    cpu: () =>
      new Promise((resolve) => {
        const listener = (message: { type?: string; usage?: NodeJS.CpuUsage }) => {
          if (message?.type !== 'peers:cpu') return
          child.off('message', listener)
          resolve(message.usage!.user + message.usage!.system)
        }
        child.on('message', listener)
        child.send({ type: 'peers:cpu' })
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      // The IPC channel would keep the server's event loop alive after it closed: let it go first.
      if (child.connected) child.disconnect()
      child.kill('SIGTERM')
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(forced)
    },
  }
  const started = performance.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`peers: ${script} exited before answering: ${stderr.slice(0, 800)}`)
    const ok = await fetch(`${url}/peers/open`).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) return server
    if (performance.now() - started > 60_000) {
      await server.stop()
      throw new Error(`peers: ${script} did not answer within 60 s: ${stderr.slice(0, 800)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The cookies a first visit sets (the session's, and Kiln's XSRF-TOKEN), as a browser sends them back. */
async function sessionCookie(url: string): Promise<string> {
  const res = await fetch(url)
  const cookies = res.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!)
  if (!cookies.length) throw new Error(`peers: ${url} set no cookie`)
  return cookies.join('; ')
}

interface Target {
  server: PeerServer
  path: string
  headers?: Record<string, string>
  headerSets?: Array<Record<string, string>>
}

interface Measured {
  rps: number
  p99: number
  micros: number
  setsCookie: boolean
}

interface Line {
  name: string
  kiln: Measured
  adonis: Measured
}

/** One autocannon run against `target`, with the server's own CPU time over the run. */
async function drive(target: Target, seconds: number): Promise<CannonResult & { micros: number }> {
  const before = await target.server.cpu()
  const result = await cannon(target.server.url + target.path, { seconds, connections: CONNECTIONS, headers: target.headers, headerSets: target.headerSets })
  const micros = ((await target.server.cpu()) - before) / Math.max(result.requests, 1)
  if (result.errors || result.non2xx) throw new Error(`peers: ${target.server.url}${target.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { ...result, micros }
}

/** A second of warm-up each, then `ROUNDS` rounds of AdonisJS and Kiln back to back; each side's medians. */
async function line(name: string, kiln: Target, adonis: Target): Promise<Line> {
  await drive(kiln, 1)
  await drive(adonis, 1)
  const runs = { kiln: [] as Array<CannonResult & { micros: number }>, adonis: [] as Array<CannonResult & { micros: number }> }
  for (let i = 0; i < ROUNDS; i++) {
    runs.adonis.push(await drive(adonis, SECONDS))
    runs.kiln.push(await drive(kiln, SECONDS))
  }
  const measured = async (target: Target, results: Array<CannonResult & { micros: number }>): Promise<Measured> => {
    const res = await fetch(target.server.url + target.path, { headers: target.headers ?? target.headerSets?.[0] })
    await res.arrayBuffer()
    return {
      rps: median(results.map((result) => result.rps)),
      p99: median(results.map((result) => result.p99)),
      micros: median(results.map((result) => result.micros)),
      setsCookie: res.headers.getSetCookie().length > 0,
    }
  }
  const result = { name, kiln: await measured(kiln, runs.kiln), adonis: await measured(adonis, runs.adonis) }
  console.log(
    `peers ${name}: kiln ${result.kiln.rps} req/s, ${result.kiln.micros.toFixed(0)} µs CPU/req; adonis ${result.adonis.rps} req/s, ${result.adonis.micros.toFixed(0)} µs CPU/req`,
  )
  return result
}

function version(root: string, name: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
}

function printTable(adonisRoot: string, lines: Line[], start: { kiln: StartTime; adonis: StartTime }, load: number[]): void {
  const versions = Object.keys(ADONIS_DEPENDENCIES)
    .filter((name) => name.startsWith('@adonisjs/'))
    .map((name) => `${name.slice('@adonisjs/'.length)} ${version(adonisRoot, name)}`)
    .join(', ')
  // Three decimals where two would round a side that is behind up to 1.00.
  const verdict = (ratio: number) => `${ratio.toFixed(ratio < 1 && ratio >= 0.995 ? 3 : 2)} ${ratio >= 1 ? 'ahead' : 'BEHIND'}`
  const rows = [
    ['line', 'Kiln req/s', 'Adonis req/s', 'ratio', 'Kiln µs CPU/req', 'Adonis µs CPU/req', 'ratio'],
    ...lines.map(({ name, kiln, adonis }) => [
      name + (kiln.setsCookie !== adonis.setsCookie ? ` (sets a cookie: Kiln ${kiln.setsCookie}, Adonis ${adonis.setsCookie})` : ''),
      String(kiln.rps),
      String(adonis.rps),
      verdict(kiln.rps / adonis.rps),
      kiln.micros.toFixed(0),
      adonis.micros.toFixed(0),
      verdict(adonis.micros / kiln.micros),
    ]),
  ]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  console.log(
    `peers: Kiln against AdonisJS (${versions}; SQLite via better-sqlite3, memory session store), Node ${process.version}; ` +
      `autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each (medians), ${TOKENS} users' tokens in turn; ` +
      `load average at the start ${load.map((value) => value.toFixed(2)).join(' ')}. Ratios ≥ 1: Kiln ahead.`,
  )
  for (const row of rows)
    console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')}`)
  const ms = (time: StartTime) => `${time.wall.toFixed(0)} ms (${Number.isNaN(time.cpu) ? '?' : time.cpu.toFixed(0)} ms CPU)`
  console.log(
    `  cold start, spawn to first 200 (median of ${STARTS}): Kiln \`kiln serve\` ${ms(start.kiln)}, AdonisJS \`node bin/server.js\` ${ms(start.adonis)}; ` +
      `ratio ${verdict(start.adonis.wall / start.kiln.wall)} (CPU ${verdict(start.adonis.cpu / start.kiln.cpu)})`,
  )
}

/**
 * P6: how long `kiln serve` takes from the command to its first 200, for a
 * copy of the starter app (migrated), against a bare h3 + srvx server script
 * started the same way (a new Node process, first 200 on `/`). Three starts
 * each, interleaved; prints the medians and the first (cold) start.
 *
 * The start is split in two: `import 'kiln-framework'` alone (a fresh
 * process that imports it the way the CLI does and times the import), and
 * the boot (the rest of the total: Node itself, the CLI, config files,
 * plugins' register and boot, route files, listen and the first request).
 * Beside each wall-clock time it prints the CPU time the process used, read
 * from /proc on Linux: on a machine shared with other work, CPU time moves
 * much less with the load than wall-clock time does.
 */
import { execFile, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../tests/fixtures/redis-server.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const KILN = join(ROOT, 'bin', 'kiln.js')
/** How Node loads Kiln from the clone: its TypeScript sources, through tsx (as `bin/kiln.js` does). */
const FROM_SOURCES = ['--conditions=kiln-source', '--import=tsx']

/** A start: wall-clock milliseconds, and the CPU milliseconds of the process (undefined where /proc is missing). */
export interface Timing {
  wall: number
  cpu: number | undefined
}

/** CPU milliseconds (user + system) a running process has used so far, from /proc; undefined off Linux. */
function cpuOf(pid: number | undefined): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return undefined
  }
}

/**
 * Milliseconds from spawning `args` to the first 200 on `/` of `port` (and
 * the CPU the server used until then), then stops the process.
 *
 * @example
 * ```ts
 * const { wall, cpu } = await untilFirst200([kilnBin, 'serve'], appRoot, 3999)
 * ```
 */
export async function untilFirst200(args: string[], cwd: string, port: number, env: NodeJS.ProcessEnv = process.env): Promise<Timing> {
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...env, PORT: String(port) } })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`P6: the server exited before answering: ${stderr.slice(0, 500)}`)
      const ok = await fetch(`http://127.0.0.1:${port}/`).then(
        (res) => res.status === 200,
        () => false,
      )
      if (ok) return { wall: performance.now() - started, cpu: cpuOf(child.pid) }
      if (performance.now() - started > 30_000) throw new Error(`P6: no 200 within 30 s: ${stderr.slice(0, 500)}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/**
 * How long `import 'kiln-framework'` takes in a fresh process started in
 * `cwd` with `nodeArgs`, and the CPU it uses, timed inside that process.
 *
 * @example
 * ```ts
 * const { wall } = await importTime(['--conditions=kiln-source', '--import=tsx'], appRoot)
 * ```
 */
export function importTime(nodeArgs: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Timing> {
  const code = `const t = performance.now(), c = process.cpuUsage(); await import('kiln-framework'); const u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }))`
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [...nodeArgs, '--input-type=module', '-e', code], { cwd, env }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`P6: importing kiln-framework failed: ${stderr.slice(0, 500)}`))
        : resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Timing),
    ),
  )
}

function run(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)))
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed: ${stderr.slice(0, 500)}`))))
  })
}

/** The middle value. @example `median([3, 1, 2]) // 2` */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Starts per measure: the medians printed are of this many. */
export const ROUNDS = 3

/**
 * One line of P6: the import, the boot and the total, each the median of
 * the runs given (wall-clock, CPU in parentheses when known).
 *
 * @example
 * ```ts
 * console.log(startLine(imports, serves)) // "import 'kiln-framework' 120 ms (cpu 100 ms), boot 300 ms, total 420 ms (cpu 380 ms)..."
 * ```
 */
export function startLine(imports: Timing[], serves: Timing[]): string {
  const cpu = (timings: Timing[]) => (timings.every((t) => t.cpu !== undefined) ? ` (cpu ${median(timings.map((t) => t.cpu!)).toFixed(0)} ms)` : '')
  const importMs = median(imports.map((t) => t.wall))
  const total = median(serves.map((t) => t.wall))
  return (
    `import 'kiln-framework' ${importMs.toFixed(0)} ms${cpu(imports)}, boot ${(total - importMs).toFixed(0)} ms, ` +
    `total to first 200 ${total.toFixed(0)} ms${cpu(serves)} (first start ${serves[0]!.wall.toFixed(0)} ms); medians of ${serves.length}`
  )
}

export async function startTime(): Promise<void> {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true })
  // Inside the repository, so the copy resolves `kiln-framework` by self-reference, as the tests' apps do.
  const app = mkdtempSync(join(ROOT, 'tmp', 'bench-start-'))
  try {
    const template = join(ROOT, 'app-template')
    cpSync(template, app, {
      recursive: true,
      filter: (src) => !/^(\.env|storage\/.+|database\/.*\.sqlite.*)$/.test(relative(template, src).split('\\').join('/')),
    })
    writeFileSync(
      join(app, '.env'),
      `APP_KEY=base64:${Buffer.alloc(32, 6).toString('base64')}\nAPP_ENV=production\nAPP_URL=http://127.0.0.1:3000\nAPP_DEBUG=false\nBROADCAST_CONNECTION=log\n`,
    )
    await run([KILN, 'migrate', '--force'], app).catch(() => run([KILN, 'migrate'], app))
    const bare = join(app, 'bare-server.mjs')
    writeFileSync(
      bare,
      `import { H3 } from 'h3'\nimport { serve } from 'srvx'\nserve({ fetch: new H3().get('/', () => ({ ok: true })).fetch, port: Number(process.env.PORT), hostname: '127.0.0.1', silent: true })\n`,
    )
    const imports: Timing[] = []
    const kiln: Timing[] = []
    const baseline: Timing[] = []
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await untilFirst200([bare], ROOT, await freePort()))
      imports.push(await importTime(FROM_SOURCES, app))
      kiln.push(await untilFirst200([KILN, 'serve'], app, await freePort()))
    }
    const k = median(kiln.map((t) => t.wall))
    const b = median(baseline.map((t) => t.wall))
    const bCpu = baseline.every((t) => t.cpu !== undefined) ? ` (cpu ${median(baseline.map((t) => t.cpu!)).toFixed(0)} ms)` : ''
    console.log(
      `P6 start (kiln serve to first 200, starter app, from the clone under tsx): ${startLine(imports, kiln)}; ` +
        `bare h3 + srvx ${b.toFixed(0)} ms${bCpu}, ratio ${(b / k).toFixed(2)}; goal ≤ 400 ms: ${k <= 400 ? 'met' : 'NOT met'}`,
    )
  } finally {
    rmSync(app, { recursive: true, force: true })
  }
}

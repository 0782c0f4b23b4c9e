/**
 * P6: how long `kiln serve` takes from the command to its first 200, for a
 * copy of the starter app (migrated), against a bare h3 + srvx server script
 * started the same way (a new Node process, first 200 on `/`). Five starts
 * each, interleaved; prints the medians and the first (cold) start.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../tests/drivers/kv/redis-server.ts'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const KILN = join(ROOT, 'bin', 'kiln.js')

/**
 * Milliseconds from spawning `args` to the first 200 on `/` of `port`, then stops the process.
 *
 * @example
 * ```ts
 * const ms = await untilFirst200([kilnBin, 'serve'], appRoot, 3999)
 * ```
 */
export async function untilFirst200(args: string[], cwd: string, port: number, env: NodeJS.ProcessEnv = process.env): Promise<number> {
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
      if (ok) return performance.now() - started
      if (performance.now() - started > 30_000) throw new Error(`P6: no 200 within 30 s: ${stderr.slice(0, 500)}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
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
      `APP_KEY=base64:${Buffer.alloc(32, 6).toString('base64')}\nAPP_ENV=production\nAPP_DEBUG=false\nBROADCAST_CONNECTION=log\n`,
    )
    await run([KILN, 'migrate', '--force'], app).catch(() => run([KILN, 'migrate'], app))
    const bare = join(app, 'bare-server.mjs')
    writeFileSync(
      bare,
      `import { H3 } from 'h3'\nimport { serve } from 'srvx'\nserve({ fetch: new H3().get('/', () => ({ ok: true })).fetch, port: Number(process.env.PORT), hostname: '127.0.0.1', silent: true })\n`,
    )
    const kiln: number[] = []
    const baseline: number[] = []
    for (let round = 0; round < 5; round++) {
      baseline.push(await untilFirst200([bare], ROOT, await freePort()))
      kiln.push(await untilFirst200([KILN, 'serve'], app, await freePort()))
    }
    const k = median(kiln)
    const b = median(baseline)
    console.log(
      `P6 start (kiln serve to first 200, starter app): kiln median ${k.toFixed(0)} ms (first start ${kiln[0]!.toFixed(0)} ms), bare h3 + srvx median ${b.toFixed(0)} ms, ratio ${(b / k).toFixed(2)}; goal ≤ 400 ms: ${k <= 400 ? 'met' : 'NOT met'}`,
    )
  } finally {
    rmSync(app, { recursive: true, force: true })
  }
}

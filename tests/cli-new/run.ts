import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The framework's own `kiln` bin in this clone. */
export const BIN = fileURLToPath(new URL('../../bin/kiln.js', import.meta.url))

/**
 * The environment for a new app's processes: this one's, without what would
 * point them elsewhere (a KILN_ROOT, app settings of the test run, npm's
 * variables for the script that started the tests).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const foreign = /^(?:KILN_|APP_|DB_|SESSION_|BROADCAST_|CACHE_|npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$)/
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !foreign.test(name))), ...extra }
}

/**
 * Runs a program to its end with no terminal (stdin is a closed pipe) and
 * resolves to its exit code and output.
 *
 * @example
 * ```ts
 * const { code, stdout } = await run(process.execPath, [BIN, 'new', dir], { cwd })
 * ```
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] })
    child.stdin.end()
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += String(chunk)))
    child.stderr.on('data', (chunk) => (stderr += String(chunk)))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

/**
 * Starts a long-running program in a process group of its own (so `npx`
 * and the server under it stop together) and resolves once its output
 * matches `ready`, with the match and a `stop()` that ends the group.
 *
 * @example
 * ```ts
 * const server = await start('npx', ['kiln', 'serve', '--port=0'], { cwd }, /on (http:\S+?)\/?$/m)
 * ```
 */
export function start(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
  ready: RegExp,
): Promise<{ match: RegExpMatchArray; output: () => string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(command, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        // Already gone.
      }
    }
    await exited
  }
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = output.match(ready)
      if (match) resolve({ match, output: () => output, stop })
    }
    child.stdout!.on('data', (chunk) => ((output += String(chunk)), check()))
    child.stderr!.on('data', (chunk) => (output += String(chunk)))
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready:\n${output}`)))
  })
}

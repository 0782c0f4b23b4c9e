import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js')
const rotating = fileURLToPath(new URL('./cannon-rotating.mjs', import.meta.url))

/** What one autocannon run measured. */
export interface CannonResult {
  rps: number
  p50: number
  p99: number
  requests: number
  errors: number
  non2xx: number
  /** Bytes of one response body (average). */
  bytesPerResponse: number
  /** CPU time (user + system) this process spent per request during the run: the server's, when it runs here. */
  cpuMicrosPerRequest: number
}

/**
 * Drives a URL with autocannon, in its own process (never the server's
 * event loop), for `seconds` with `connections` keep-alive connections:
 * every request with `headers`, or with each of `headerSets` in turn.
 * The bench servers run in the calling process, which otherwise only waits,
 * so its CPU time over the run is the server's.
 *
 * @example
 * ```ts
 * const result = await cannon('http://127.0.0.1:3000/comp/update?...', { method: 'POST', body, headers })
 * ```
 */
export function cannon(
  url: string,
  options: {
    seconds?: number
    connections?: number
    method?: string
    body?: string
    headers?: Record<string, string>
    headerSets?: Array<Record<string, string>>
  } = {},
): Promise<CannonResult> {
  const seconds = options.seconds ?? 3
  const connections = options.connections ?? 32
  const method = options.method ?? 'GET'
  // With headerSets, its programmatic API (in its own process too): the CLI cannot vary headers between requests.
  const args = options.headerSets
    ? [rotating, JSON.stringify({ url, seconds, connections, method, headerSets: options.headerSets })]
    : [cli, '-j', '-c', String(connections), '-d', String(seconds), '-m', method]
  if (!options.headerSets) {
    if (options.body !== undefined) args.push('-b', options.body)
    for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`)
    args.push(url)
  }
  const cpuBefore = process.cpuUsage()
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`))
      const cpu = process.cpuUsage(cpuBefore)
      const result = JSON.parse(stdout) as {
        requests: { average: number; total: number }
        latency: { p50: number; p99: number }
        errors: number
        non2xx: number
        throughput: { total: number }
      }
      resolve({
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        requests: result.requests.total,
        errors: result.errors,
        non2xx: result.non2xx,
        bytesPerResponse: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
        cpuMicrosPerRequest: result.requests.total ? Math.round((cpu.user + cpu.system) / result.requests.total) : 0,
      })
    })
  })
}

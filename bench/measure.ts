import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** What one load run measured. */
export interface LoadResult {
  requests: number
  errors: number
  seconds: number
  rps: number
}

const client = fileURLToPath(new URL('./load-client.ts', import.meta.url))

/**
 * Drives `url` from a separate process for `seconds` with `concurrency`
 * keep-alive connections.
 *
 * @example
 * ```ts
 * const { rps } = await load('http://127.0.0.1:3000/health', { seconds: 3 })
 * ```
 */
export function load(url: string, options: { seconds?: number; concurrency?: number; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const headers = Object.entries(options.headers ?? {}).map(([k, v]) => `${k}:${v}`)
  const args = ['--import=tsx', client, url, String(options.seconds ?? 3), String(options.concurrency ?? 32), ...headers]
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`))
      else resolve(JSON.parse(stdout) as LoadResult)
    })
  })
}

/**
 * Runs the pair alternately (`rounds` times each, after a warm-up) and
 * returns the best throughput of each, so background noise on a shared
 * machine hurts both sides alike.
 *
 * @example
 * ```ts
 * const { kiln, baseline, ratio } = await compare(kilnUrl, baseUrl)
 * ```
 */
export async function compare(
  kilnUrl: string,
  baselineUrl: string,
  options: { seconds?: number; rounds?: number; kilnHeaders?: Record<string, string>; baselineHeaders?: Record<string, string> } = {},
): Promise<{ kiln: LoadResult; baseline: LoadResult; ratio: number }> {
  const seconds = options.seconds ?? 3
  await load(kilnUrl, { seconds: 1, headers: options.kilnHeaders })
  await load(baselineUrl, { seconds: 1, headers: options.baselineHeaders })
  let kiln: LoadResult | undefined
  let baseline: LoadResult | undefined
  for (let i = 0; i < (options.rounds ?? 2); i++) {
    const b = await load(baselineUrl, { seconds, headers: options.baselineHeaders })
    const k = await load(kilnUrl, { seconds, headers: options.kilnHeaders })
    if (!baseline || b.rps > baseline.rps) baseline = b
    if (!kiln || k.rps > kiln.rps) kiln = k
  }
  return { kiln: kiln!, baseline: baseline!, ratio: kiln!.rps / baseline!.rps }
}

/**
 * Prints one bench line.
 *
 * @example
 * ```ts
 * report('P0 kernel JSON', kiln, baseline, ratio)
 * ```
 */
export function report(name: string, kiln: LoadResult, baseline: LoadResult, ratio: number, goal?: number): void {
  const verdict = goal === undefined ? '' : ratio >= goal ? `  (goal ≥ ${goal}: met)` : `  (goal ≥ ${goal}: NOT met)`
  console.log(`${name}: kiln ${kiln.rps} req/s, baseline ${baseline.rps} req/s, ratio ${ratio.toFixed(2)}${verdict}`)
  if (kiln.errors || baseline.errors) console.log(`  errors: kiln ${kiln.errors}, baseline ${baseline.errors}`)
}

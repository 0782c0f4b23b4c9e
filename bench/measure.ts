import { cannon, type CannonResult } from './autocannon.ts'

/**
 * Runs a pair interleaved: a one-second warm-up of each, then `rounds`
 * rounds (default three) of the baseline and Kiln back to back, each driven
 * by autocannon from its own process. The ratio is the median of the
 * rounds' ratios, so a noisy round on a shared machine moves it least; the
 * results shown are the median round's.
 *
 * @example
 * ```ts
 * const { kiln, baseline, ratio } = await compare(kilnUrl, baseUrl)
 * ```
 */
export async function compare(
  kilnUrl: string,
  baselineUrl: string,
  options: {
    seconds?: number
    rounds?: number
    kilnHeaders?: Record<string, string>
    baselineHeaders?: Record<string, string>
    /** Header sets sent in turn, one per request (see {@link cannon}). */
    kilnHeaderSets?: Array<Record<string, string>>
    baselineHeaderSets?: Array<Record<string, string>>
  } = {},
): Promise<{ kiln: CannonResult; baseline: CannonResult; ratio: number }> {
  const seconds = options.seconds ?? 3
  const kilnSide = { headers: options.kilnHeaders, headerSets: options.kilnHeaderSets }
  const baselineSide = { headers: options.baselineHeaders, headerSets: options.baselineHeaderSets }
  await cannon(kilnUrl, { seconds: 1, ...kilnSide })
  await cannon(baselineUrl, { seconds: 1, ...baselineSide })
  const rounds: Array<{ kiln: CannonResult; baseline: CannonResult; ratio: number }> = []
  for (let i = 0; i < (options.rounds ?? 3); i++) {
    const baseline = await cannon(baselineUrl, { seconds, ...baselineSide })
    const kiln = await cannon(kilnUrl, { seconds, ...kilnSide })
    if (kiln.non2xx || kiln.errors) throw new Error(`${kilnUrl}: ${kiln.non2xx} non-2xx answers, ${kiln.errors} errors`)
    rounds.push({ kiln, baseline, ratio: kiln.rps / baseline.rps })
  }
  return rounds.sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!
}

/**
 * Prints one bench case: requests per second, p50 and p99 latency and the
 * server's CPU µs per request of each side, and the median ratio against its goal.
 *
 * @example
 * ```ts
 * report('P0 kernel JSON', kiln, baseline, ratio)
 * ```
 */
export function report(name: string, kiln: CannonResult, baseline: CannonResult, ratio: number, goal?: number): void {
  const verdict = goal === undefined ? '' : ratio >= goal ? `  (goal ≥ ${goal}: met)` : `  (goal ≥ ${goal}: NOT met)`
  const side = (result: CannonResult) => `${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.cpuMicrosPerRequest} µs CPU/req`
  console.log(`${name}: median ratio ${ratio.toFixed(2)}${verdict}\n  kiln:     ${side(kiln)}\n  baseline: ${side(baseline)}`)
  if (baseline.errors || baseline.non2xx) console.log(`  baseline errors: ${baseline.errors}, non-2xx ${baseline.non2xx}`)
}

/**
 * The session and XSRF cookies a first visit gets, as a returning browser
 * sends them back: the `web` lines measure a visitor who has a session.
 *
 * @example
 * ```ts
 * const cookie = await firstVisitCookies(`${server.url}/web-bench`)
 * ```
 */
export async function firstVisitCookies(url: string): Promise<string> {
  const first = await fetch(url)
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  if (!cookie.includes('XSRF-TOKEN=')) throw new Error(`${url}: the first visit got no session and XSRF cookies`)
  return cookie
}

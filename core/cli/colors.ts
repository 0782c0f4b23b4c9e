import { picocolors } from '../support/commonjs-packages.ts'
import type { Writable } from 'node:stream'

/**
 * picocolors' formatters (`green`, `bold`...), each a no-op when colour is off.
 *
 * @example
 * ```ts
 * const c: Colors = colorsFor(process.stdout, process.env)
 * ```
 */
export type Colors = ReturnType<typeof picocolors.createColors>

/**
 * Whether output to `stream` should be coloured: never when `NO_COLOR` is set
 * (any value, even empty), always when `FORCE_COLOR` is set to anything but
 * `0`/`false`, else only when the stream is a terminal. picocolors' own
 * detection reads `process` once at import; the CLI decides per stream and per
 * call, so that a piped stdout stays plain while stderr on a terminal is
 * coloured, and so that tests can pass their own environment.
 *
 * @example
 * ```ts
 * wantsColor(process.stdout, process.env) // false under `kiln route:list | less`
 * ```
 */
export function wantsColor(stream: Writable, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined) return false
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force !== 'false'
  return (stream as Writable & { isTTY?: boolean }).isTTY === true
}

/**
 * picocolors formatters for one stream, enabled or not by `wantsColor`.
 *
 * @example
 * ```ts
 * const c = colorsFor(process.stderr, process.env)
 * process.stderr.write(`${c.red('Unknown command')} "migrat"\n`)
 * ```
 */
export function colorsFor(stream: Writable, env: Record<string, string | undefined>): Colors {
  return picocolors.createColors(wantsColor(stream, env))
}

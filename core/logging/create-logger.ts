import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import pino, { type Logger } from 'pino'

/** Keys whose values never reach a log line, wherever they appear. */
export const REDACTED_KEYS = ['authorization', 'cookie', 'set-cookie', 'password', 'password_confirmation', 'token', 'plainTextToken', 'secret', 'APP_KEY', 'key', 'auth', 'signature', '_token']

/**
 * Builds the app's pino logger: stdout and/or a file, with secrets redacted at
 * any depth up to three levels (`authorization`, `cookie`, `password`,
 * `token`, `secret`, `APP_KEY`, ...).
 *
 * @example
 * ```ts
 * const logger = createLogger({ root, level: 'info', channels: ['file'], file: { path: 'storage/logs/kiln.log' } })
 * logger.info({ user: 1 }, 'Logged in')
 * ```
 */
export function createLogger(options: { root: string; level: string; channels: string[]; file: { path: string }; redact?: string[]; name?: string }): Logger {
  const paths = REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`].map((p) => (/^[\w*.]+$/.test(p) ? p : p.replace(k, `["${k}"]`))))
  const streams: pino.StreamEntry[] = []
  if (options.channels.includes('stdout')) streams.push({ stream: pino.destination({ dest: 1, sync: false }) })
  if (options.channels.includes('file')) {
    const path = resolve(options.root, options.file.path)
    mkdirSync(dirname(path), { recursive: true })
    streams.push({ stream: pino.destination({ dest: path, sync: true, mkdir: true }) })
  }
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: [...paths, ...(options.redact ?? [])], censor: '[redacted]' },
    },
    streams.length === 1 ? streams[0]!.stream : pino.multistream(streams),
  )
}

export type { Logger }

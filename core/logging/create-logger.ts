import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import type pino from 'pino'
import type { Logger } from 'pino'

let pinoModule: typeof pino | undefined
/**
 * pino, loaded by the first logger (at boot) rather than by `import
 * 'kiln-framework'`: with its serializers, redaction and thread-stream it is
 * some 30 CommonJS modules (issue 25, P6). `require`, so creating a logger
 * stays synchronous.
 */
function loadPino(): typeof pino {
  return (pinoModule ??= createRequire(import.meta.url)('pino') as typeof pino)
}

/** Keys whose values never reach a log line, wherever they appear. */
export const REDACTED_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'password_confirmation',
  'token',
  'plainTextToken',
  'secret',
  'APP_KEY',
  'key',
  'auth',
  'signature',
  '_token',
]

/** What {@link createLogger} builds. */
export interface LoggerOptions {
  root: string
  level: string
  channels: string[]
  file: { path: string }
  /** Extra paths to redact, in pino's syntax. */
  redact?: string[]
  name?: string
  /** Human-readable lines on stdout (pino-pretty) instead of JSON. The file channel always stays JSON. */
  pretty?: boolean
}

/**
 * Builds the app's pino logger: stdout and/or a file, with secrets redacted at
 * any depth up to three levels (`authorization`, `cookie`, `password`,
 * `token`, `secret`, `APP_KEY`, ...). Lines are JSON, except on stdout with
 * `pretty`, where pino-pretty formats them for a person reading a terminal.
 *
 * @example
 * ```ts
 * const logger = createLogger({ root, level: 'info', channels: ['file'], file: { path: 'storage/logs/kiln.log' } })
 * logger.info({ user: 1 }, 'Logged in')
 * ```
 */
export function createLogger(options: LoggerOptions): Logger {
  const paths = REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`].map((p) => (/^[\w*.]+$/.test(p) ? p : p.replace(k, `["${k}"]`))))
  const pino = loadPino()
  const streams: pino.StreamEntry[] = []
  if (options.channels.includes('stdout')) streams.push({ stream: options.pretty ? prettyStdout() : pino.destination({ dest: 1, sync: false }) })
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

/**
 * pino-pretty writing to stdout, loaded only when asked for: production never
 * pays for it. Synchronous, so the last lines before a restart or a crash are
 * on screen. A request log line reads `GET /orders 200 3.1ms`, rather than
 * its three objects spread over ten lines.
 */
function prettyStdout(): pino.DestinationStream {
  let pretty: typeof import('pino-pretty')
  try {
    pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')
  } catch (error) {
    // A development dependency of the app (kiln new adds it): a production install has none, so JSON lines, said once.
    const { code, message } = error as { code?: string; message?: string }
    if (code !== 'MODULE_NOT_FOUND' || !message?.includes("'pino-pretty'")) throw error
    process.stderr.write('kiln: pino-pretty is not installed, so log lines stay JSON: run npm install --save-dev pino-pretty for readable ones.\n')
    return loadPino().destination({ dest: 1, sync: false })
  }
  return pretty({
    destination: 1,
    sync: true,
    ignore: 'pid,hostname,req,res,responseTime',
    translateTime: 'SYS:HH:MM:ss.l',
    messageFormat: (log, messageKey) => {
      const { req, res, responseTime } = log as { req?: { method?: string; url?: string }; res?: { statusCode?: number }; responseTime?: number }
      const message = String(log[messageKey] ?? '')
      if (!req?.method || !res) return message
      return `${req.method} ${req.url ?? ''} ${res.statusCode ?? ''}${responseTime === undefined ? '' : ` ${responseTime}ms`}`
    },
  })
}

export type { Logger }

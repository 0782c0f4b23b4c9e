import { definePlugin } from '../application/define-plugin.ts'
import type { Application } from '../application/application.ts'
import { createLogger, type Logger } from './create-logger.ts'
import { loggingConfigSchema } from './logging-config.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    logger: Logger
  }
}

/**
 * The kernel's logging provider: `app.service('logger')` / `LOGGER`, a pino
 * logger with secrets redacted. Tests default to `silent`. Stdout is pretty
 * in development at a terminal (or as `logging.pretty` says), JSON otherwise.
 */
export const loggingProvider = definePlugin({
  name: 'kiln:logging',
  config: { file: 'logging', schema: loggingConfigSchema },
  services: {
    logger: { make: makeLogger, close: (logger) => new Promise<void>((done) => logger.flush(() => done())) },
  },
})

/** The app's logger, as config/logging.ts and the environment say. */
function makeLogger(app: Application): Logger {
  const level = app.config.get<string | undefined>('logging.level') ?? (app.environment === 'test' ? 'silent' : app.debug ? 'debug' : 'info')
  return createLogger({
    root: app.root,
    level,
    channels: app.config.get('logging.channels'),
    file: app.config.get('logging.file'),
    redact: app.config.get('logging.redact'),
    name: app.config.get('app.name'),
    pretty: app.config.get<boolean | undefined>('logging.pretty') ?? (app.environment === 'development' && process.stdout.isTTY === true),
  })
}

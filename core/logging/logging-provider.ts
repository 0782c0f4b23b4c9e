import { definePlugin } from '../application/define-plugin.ts'
import { LOGGER } from '../container/tokens.ts'
import { createLogger, type Logger } from './create-logger.ts'
import { loggingConfigSchema } from './logging-config.ts'

declare module '../application/kiln-services.ts' {
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
  register(app) {
    const level = app.config.get<string | undefined>('logging.level') ?? (app.environment === 'test' ? 'silent' : app.debug ? 'debug' : 'info')
    const logger = createLogger({
      root: app.root,
      level,
      channels: app.config.get('logging.channels'),
      file: app.config.get('logging.file'),
      redact: app.config.get('logging.redact'),
      name: app.config.get('app.name'),
      pretty: app.config.get<boolean | undefined>('logging.pretty') ?? (app.environment === 'development' && process.stdout.isTTY === true),
    })
    app.instance(LOGGER, logger, 'logger')
    app.terminating(() => new Promise<void>((done) => logger.flush(() => done())))
  },
})

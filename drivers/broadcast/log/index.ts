import type { Logger } from '../../../core/index.ts'
import { defineBroadcastDriver, SigningBroadcaster, type BroadcastMessage, type AppKeys } from '../../../plugins/broadcasting/index.ts'

/** The driver name in `config/broadcasting.ts`. */
export const DRIVER_NAME = 'log'

/**
 * Writes each broadcast (event, channels, pretty JSON payload) to the log and
 * sends nothing: the default for a new app.
 *
 * @example
 * ```ts
 * new LogBroadcaster('log', { driver: 'log' }, appKey, app.logger)
 * ```
 */
export class LogBroadcaster extends SigningBroadcaster {
  constructor(
    name: string,
    config: { driver: string },
    appKey: Buffer | AppKeys,
    private readonly logger: Logger,
  ) {
    super(name, config, appKey)
  }

  async broadcast({ channels, event, payload }: BroadcastMessage): Promise<void> {
    this.logger.info(`Broadcasting [${event}] on channels [${channels.join(', ')}] with payload:\n${JSON.stringify(payload, null, 4)}`)
  }

  getInstance(): Logger {
    return this.logger
  }
}

/**
 * The `log` broadcast driver plugin.
 *
 * @example
 * ```ts
 * import logDriver from 'kiln-framework/drivers/log'
 * plugins: [broadcasting(), logDriver]
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  create: (app, { name, config, appKey }) => new LogBroadcaster(name, config, appKey, app.logger),
})

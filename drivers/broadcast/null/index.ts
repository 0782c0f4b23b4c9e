import { defineBroadcastDriver, SigningBroadcaster } from '../../../plugins/broadcasting/index.ts'

/** The driver name in `config/broadcasting.ts`. */
export const DRIVER_NAME = 'null'

/**
 * Accepts every broadcast and discards it: the off switch.
 *
 * @example
 * ```ts
 * await new NullBroadcaster('null', { driver: 'null' }, appKey).broadcast(message) // nothing happens
 * ```
 */
export class NullBroadcaster extends SigningBroadcaster {
  async broadcast(): Promise<void> {}
}

/**
 * The `null` broadcast driver plugin.
 *
 * @example
 * ```ts
 * import nullDriver from 'kiln-framework/drivers/null'
 * plugins: [broadcasting(), nullDriver]
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  create: (_app, { name, config, appKey }) => new NullBroadcaster(name, config, appKey),
})

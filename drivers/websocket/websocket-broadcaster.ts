import type { Logger } from '../../core/index.ts'
import { SigningBroadcaster, type BroadcastMessage, type BroadcasterConfig } from '../../plugins/broadcasting/index.ts'
import { rtConfigSchema } from './rt-config.ts'
import { RtServer } from './rt-server.ts'

/**
 * The `websocket` (alias `rt`) broadcaster: it owns the in-process realtime
 * server and hands each broadcast to it. The server verifies subscriptions
 * with the same key and secret this broadcaster signs them with.
 *
 * @example
 * ```ts
 * const rt = app.service<BroadcastManager>('broadcast').connection('rt') as WebsocketBroadcaster
 * rt.server.size // sockets held by this process
 * ```
 */
export class WebsocketBroadcaster extends SigningBroadcaster {
  readonly server: RtServer

  constructor(name: string, config: BroadcasterConfig, appKey: Buffer, logger: Logger) {
    super(name, config, appKey)
    const parsed = rtConfigSchema.safeParse(config)
    if (!parsed.success) throw new Error(`config/broadcasting.ts connections.${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
    this.server = new RtServer(parsed.data, { key: this.key, secret: this.signingSecret() }, logger)
  }

  async broadcast({ channels, event, payload, socket }: BroadcastMessage): Promise<void> {
    await this.server.start()
    await this.server.publish(channels, event, payload, socket)
  }

  /** The secret the server checks subscriptions and Pusher API calls against. @internal */
  verificationSecret(): string {
    return this.signingSecret()
  }

  getInstance(): RtServer {
    return this.server
  }

  close(): Promise<void> {
    return this.server.close()
  }
}

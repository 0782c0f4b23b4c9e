import { TrustedProxies, type Logger } from '../../../core/index.ts'
import { SigningBroadcaster, type BroadcastMessage, type BroadcasterConfig, type AppKeys } from '../../../plugins/broadcasting/index.ts'
import { rtConfigSchema } from './rt-config.ts'
import { RtServer } from './rt-server.ts'

/**
 * The `websocket` (alias `rt`) broadcaster: it owns the in-process realtime
 * server and hands each broadcast to it. The server verifies subscriptions
 * with the same key and secret this broadcaster signs them with.
 *
 * @example
 * ```ts
 * const rt = app.service('broadcast').connection('rt') as WebsocketBroadcaster
 * rt.server.size // sockets held by this process
 * ```
 */
export class WebsocketBroadcaster extends SigningBroadcaster {
  readonly server: RtServer

  constructor(name: string, config: BroadcasterConfig, appKey: Buffer | AppKeys, logger: Logger, proxies: TrustedProxies = TrustedProxies.none) {
    super(name, config, appKey)
    const parsed = rtConfigSchema.safeParse(config)
    if (!parsed.success)
      throw new Error(`config/broadcasting.ts connections.${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
    const [secret, ...previousSecrets] = this.verificationSecrets()
    this.server = new RtServer(parsed.data, { key: this.key, secret: secret!, previousSecrets, masterKey: this.encryptionMasterKey() }, logger, proxies)
  }

  /** True once the app serves this connection's sockets (it is the active connection). @internal set by the driver's boot. */
  mounted = false

  async broadcast({ channels, event, payload, socket, id }: BroadcastMessage): Promise<void> {
    await this.server.start()
    await this.server.publish(channels, event, payload, socket, { id })
  }

  undeliverable(): string | undefined {
    // With scaling, broadcasts travel through Redis to the processes that do serve sockets.
    if (this.mounted || this.server.config.scaling.enabled) return undefined
    return `its socket server is not running in this app (only the active connection serves /broadcasting/socket), so nobody would receive the broadcast.`
  }

  /** The secrets the server checks subscriptions and Pusher API calls against: the signing one first. @internal */
  override verificationSecrets(): string[] {
    return super.verificationSecrets()
  }

  getInstance(): RtServer {
    return this.server
  }

  close(): Promise<void> {
    return this.server.close()
  }
}

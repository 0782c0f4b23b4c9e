import { fileURLToPath } from 'node:url'
import { appSlug, ConfigError, redisUrl, requireDriverPackages, type Application } from '../../../core/index.ts'
import { defineBroadcastDriver, type BroadcasterConfig } from '../../../plugins/broadcasting/index.ts'
import { registerPusherHttpApi } from './http-api/pusher-http-api.ts'
import { pusherProtocol } from './protocol/pusher-protocol.ts'
import { svcProtocol } from './protocol/svc-protocol.ts'
import { WebsocketBroadcaster } from './websocket-broadcaster.ts'
import { TRUSTED_PROXIES_MOVED } from './rt-config.ts'

export { RtServer, type RtCredentials, type Refusal } from './rt-server.ts'
export { WebsocketBroadcaster } from './websocket-broadcaster.ts'
export { rtConfigSchema, type RtConfig } from './rt-config.ts'
export { RtError, isFatal } from './protocol/error-codes.ts'
export { svcProtocol } from './protocol/svc-protocol.ts'
export { pusherProtocol } from './protocol/pusher-protocol.ts'
export { registerPusherHttpApi, type PusherHttpApiOptions } from './http-api/pusher-http-api.ts'
export { verifyPusherRequest } from './http-api/pusher-request-signature.ts'
export type { RtHub, ChannelInfo, PresenceMember } from './channels/hub.ts'
export type { WireProtocol, Inbound } from './protocol/wire-protocol.ts'

/** The driver name in `config/broadcasting.ts`; `rt` is the same server. */
export const DRIVER_NAME = 'websocket'

/** Pusher clients name the protocol version in the query; 5 to 7 share the frames served here. */
function pusherRefusal(key: string) {
  return (request: Request) => {
    const url = new URL(request.url)
    let given: string
    try {
      given = decodeURIComponent(url.pathname.split('/').pop() ?? '')
    } catch {
      given = ''
    }
    if (given !== key) return { code: 4001, message: 'App key not in this cluster.' }
    const version = Number(url.searchParams.get('protocol') ?? '7')
    if (!(version >= 5 && version <= 7)) return { code: 4007, message: 'Unsupported protocol version.' }
    return undefined
  }
}

/** A file of the committed browser build of `@kiln/rt`. */
const clientFile = (file: string) => fileURLToPath(new URL(`../../../packages/rt/dist/${file}`, import.meta.url))

/** The heading `kiln route:list` gives the Pusher-compatible routes. */
const PUSHER_SECTION = 'Broadcasting (Pusher-compatible API for pusher-js and Laravel Echo clients)'

/** Any connection of this driver that still sets its own `trusted_proxies` stops the boot, active or not: the key moved. */
function refuseMovedKeys(app: Application): void {
  const connections = app.config.get<Record<string, Record<string, unknown>>>('broadcasting.connections', {})
  for (const [name, connection] of Object.entries(connections)) {
    if ((connection.driver === DRIVER_NAME || connection.driver === 'rt') && connection.trusted_proxies !== undefined)
      throw new ConfigError('config/broadcasting.ts', `connections.${name}.trusted_proxies`, TRUSTED_PROXIES_MOVED)
  }
}

/** Mounts the server on the app's own HTTP server when the active connection uses it. */
async function mount(app: Application): Promise<void> {
  refuseMovedKeys(app)
  const manager = app.service('broadcast')
  const name = manager.drivers.defaultConnection()
  const driver = app.config.get<string | undefined>(`broadcasting.connections.${name}.driver`)
  if (driver !== 'websocket' && driver !== 'rt') return
  const scaling = app.config.get<{ enabled?: boolean; url?: string; timeout_ms?: number } | undefined>(`broadcasting.connections.${name}.scaling`)
  const scaled = Boolean(scaling?.enabled)
  if (scaled) {
    requireDriverPackages('broadcasting.rt-scaling', `Scaling the broadcast connection "${name}" across processes`, app.root)
    // The relay and the presence rosters live in this Redis: the readiness answer (GET /up?ready) names it.
    app.service('health').redis(`broadcasting.${name}`, redisUrl(app.env, scaling?.url), { timeoutMs: scaling?.timeout_ms })
  }
  // Each process holds its own sockets: without the Redis relay, a broadcast reaches only those of the process that sent it.
  app.service('processState').declare({
    what: `broadcasting on the in-process websocket server (connection "${name}")${scaled ? ', scaled through Redis' : ', where a broadcast reaches only the sockets of the process that sends it'}`,
    scope: scaled ? 'network' : 'process',
    setting: `set \`connections.${name}.scaling.enabled\` in config/broadcasting.ts (RT_SCALING=true in the starter), or use the kv or hosted driver`,
  })
  const broadcaster = manager.connection(name) as WebsocketBroadcaster
  const { server } = broadcaster
  broadcaster.mounted = true
  await server.start()
  app.router.websocket('/broadcasting/socket', server.hooks(svcProtocol))
  app.assets.file('/broadcasting/rt.js', clientFile('rt.js'))
  // Beside rt.js, which imports it only for encrypted channels.
  app.assets.file('/broadcasting/rt-sealed.js', clientFile('rt-sealed.js'))
  if (server.config.pusher_compatible) {
    // `kiln route:list` shows them apart, under what they are for: the app did not write them.
    app.router.group({ section: PUSHER_SECTION }, () => {
      app.router.websocket('/app/{key}', server.hooks(pusherProtocol, pusherRefusal(broadcaster.key)))
      const [secret, ...previousSecrets] = broadcaster.verificationSecrets()
      registerPusherHttpApi(app.router, { appId: server.config.app_id, key: broadcaster.key, secret: secret!, previousSecrets, hub: server })
    })
  }
}

/**
 * Left out, `scaling.prefix` is the app's name (`my_shop:`), as the kv
 * driver's prefix is (the two must match), and `scaling.url` is REDIS_URL as
 * the app reads it (its .env too, not only the process's variables).
 */
function withScalingDefaults(app: Application, config: BroadcasterConfig): BroadcasterConfig {
  const scaling = config.scaling as { prefix?: string; url?: string } | undefined
  // A scaling block that is not an object is left for the schema to refuse, with its message.
  if (scaling !== undefined && (typeof scaling !== 'object' || scaling === null)) return config
  return {
    ...config,
    scaling: {
      ...scaling,
      prefix: scaling?.prefix ?? `${appSlug(app.config.get('app.name'))}:`,
      url: redisUrl(app.env, scaling?.url),
    },
  }
}

/** The app's own address (`APP_URL`) may always connect, also behind a proxy that rewrites `Host`. */
function withOwnOrigin(app: Application, config: BroadcasterConfig): BroadcasterConfig {
  const given = config.allowed_origins
  // Anything but a list is left for the schema to refuse, with its message.
  if (given !== undefined && !Array.isArray(given)) return config
  let own: string | undefined
  try {
    own = new URL(app.config.get<string>('app.url', 'http://localhost')).host
  } catch {
    own = undefined
  }
  return { ...config, allowed_origins: [...((given as string[] | undefined) ?? []), ...(own ? [own] : [])] }
}

/**
 * The `websocket` broadcast driver (alias `rt`): an in-process realtime
 * server on the app's own port. When the active connection uses it, the app
 * serves `GET /broadcasting/socket` (native protocol), the browser client
 * `@kiln/rt` at `GET /broadcasting/rt.js` and, unless
 * `pusher_compatible: false`, Pusher protocol 7 on `/app/{key}`.
 *
 * @example
 * ```ts
 * // config/app.ts
 * import websocketDriver from 'kiln-framework/drivers/websocket'
 * plugins: [broadcasting(), websocketDriver]
 * // config/broadcasting.ts
 * connections: { rt: { driver: 'rt', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET') } }
 * ```
 */
export default defineBroadcastDriver({
  name: DRIVER_NAME,
  aliases: ['rt'],
  create: (app, { name, config, appKey }) =>
    new WebsocketBroadcaster(name, withOwnOrigin(app, withScalingDefaults(app, config)), appKey, app.logger, app.service('proxies')),
  boot: mount,
})

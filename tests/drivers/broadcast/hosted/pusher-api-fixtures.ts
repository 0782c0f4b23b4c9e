import { createHash, createHmac } from 'node:crypto'
import { createApp, type Application } from '../../../../core/index.ts'
import { startServer } from '../../../../core/testing/index.ts'
import { registerPusherHttpApi, type PusherHttpApiOptions } from '../../../../drivers/broadcast/websocket/http-api/pusher-http-api.ts'
import type { ChannelInfo, PresenceMember, RtHub } from '../../../../drivers/broadcast/websocket/channels/hub.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'

/**
 * One `publish` call as the hub received it.
 *
 * @example
 * ```ts
 * t.deepEqual(hub.published[0], { channels: ['news'], event: 'Published', data: '{"id":1}' })
 * ```
 */
export interface Published {
  channels: string[]
  event: string
  data: unknown
  except?: string
}

/**
 * A small in-process RtHub: sockets subscribe to channels (with a presence
 * member on presence channels), and every publish is recorded in order.
 * It lets the Pusher HTTP API and the hosted driver be tested without the
 * rt server.
 *
 * @example
 * ```ts
 * const hub = new MemoryHub()
 * hub.subscribe('1.1', 'presence-chat', { user_id: 1 })
 * await hub.channel('presence-chat') // { occupied: true, subscriptionCount: 1, userCount: 1 }
 * ```
 */
export class MemoryHub implements RtHub {
  readonly published: Published[] = []
  /** Set to make the next publish fail, as a hub whose backplane is down would. */
  failure?: Error
  private readonly subscribers = new Map<string, Map<string, PresenceMember | undefined>>()

  subscribe(socketId: string, channel: string, member?: PresenceMember): void {
    let sockets = this.subscribers.get(channel)
    if (!sockets) this.subscribers.set(channel, (sockets = new Map()))
    sockets.set(socketId, member)
  }

  unsubscribe(socketId: string, channel: string): void {
    const sockets = this.subscribers.get(channel)
    sockets?.delete(socketId)
    if (sockets?.size === 0) this.subscribers.delete(channel)
  }

  async publish(channels: string[], event: string, data: unknown, except?: string): Promise<void> {
    const failure = this.failure
    this.failure = undefined
    if (failure) throw failure
    this.published.push({ channels: [...channels], event, data, ...(except === undefined ? {} : { except }) })
  }

  async channels(prefix = ''): Promise<Map<string, ChannelInfo>> {
    const out = new Map<string, ChannelInfo>()
    for (const name of this.subscribers.keys()) if (name.startsWith(prefix)) out.set(name, await this.channel(name))
    return out
  }

  async channel(name: string): Promise<ChannelInfo> {
    const sockets = this.subscribers.get(name)
    const info: ChannelInfo = { occupied: (sockets?.size ?? 0) > 0, subscriptionCount: sockets?.size ?? 0 }
    return name.startsWith('presence-') ? { ...info, userCount: (await this.members(name)).length } : info
  }

  async members(name: string): Promise<PresenceMember[]> {
    const distinct = new Map<string, PresenceMember>()
    for (const member of this.subscribers.get(name)?.values() ?? []) if (member) distinct.set(String(member.user_id), member)
    return [...distinct.values()]
  }
}

/**
 * The app id and credentials the test API server accepts.
 *
 * @example
 * ```ts
 * new Pusher({ ...API, host: '127.0.0.1', port: String(port), useTLS: false })
 * ```
 */
export const API = { appId: 'kiln-app', key: 'app-key', secret: 'app-secret' } as const

/**
 * A Kiln app serving the Pusher HTTP API over `hub` on a real listening
 * server. The caller closes it.
 *
 * @example
 * ```ts
 * const api = await pusherApiServer(new MemoryHub())
 * new Pusher({ ...API, host: '127.0.0.1', port: String(api.port), useTLS: false })
 * ```
 */
export async function pusherApiServer(
  hub: RtHub,
  options: Partial<PusherHttpApiOptions> = {},
  config: Record<string, unknown> = {},
): Promise<{ app: Application; url: string; port: number; close(): Promise<void> }> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, config })
  registerPusherHttpApi(app.router, { ...API, hub, ...options })
  const server = await startServer(app)
  return {
    app,
    url: server.url,
    port: server.port,
    close: async () => {
      await server.close()
      await app.close()
    },
  }
}

/**
 * Signs a Pusher HTTP API request by hand (to send what the SDK never
 * would); `overrides` replace or add query parameters before signing, and
 * `auth_signature` in them replaces the signature. Returns path and query.
 *
 * @example
 * ```ts
 * await app.request(signedPath('POST', '/apps/kiln-app/events', body), { method: 'POST', body })
 * ```
 */
export function signedPath(method: string, path: string, body = '', overrides: Record<string, string> = {}, secret: string = API.secret): string {
  const params: Record<string, string> = {
    auth_key: API.key,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    ...(body ? { body_md5: createHash('md5').update(body).digest('hex') } : {}),
    ...overrides,
  }
  const { auth_signature: forced, ...signedParams } = params
  const query = Object.keys(signedParams)
    .sort()
    .map((k) => `${k}=${signedParams[k]}`)
    .join('&')
  const signature = createHmac('sha256', secret).update(`${method}\n${path}\n${query}`).digest('hex')
  return `${path}?${query}&auth_signature=${forced ?? signature}`
}

import { backoff } from './backoff.ts'
import { Channel, EncryptedChannel, PresenceChannel, PrivateChannel } from './channel.ts'
import { page } from './page.ts'
import type { Frame, RtOptions, RtState, SocketConstructor, SocketLike } from './types.ts'

const PONG_WAIT_MS = 5000
/** The server could not handle a subscription right now (its Redis is down): try again. */
const TRY_AGAIN = 4310

/**
 * The browser (and Node) client of Kiln's realtime server.
 *
 * @example
 * ```ts
 * import { Rt } from '@kiln/rt'
 * const rt = new Rt()
 * await rt.connect()
 * rt.private('orders.1').listen('OrderShipped', (order) => toast(order.id))
 * rt.join('chat').here(setMembers).joining(addMember).leaving(removeMember)
 * rt.encryptedPrivate('vault.1').listen('PinChanged', (e) => show(e.pin))
 * await rt.fetch('/orders/1/ship', { method: 'POST' }) // sends X-Socket-ID: skipped by toOthers()
 * ```
 */
export class Rt {
  /** The server's id for this connection; changes on every reconnect. */
  socketId: string | undefined
  state: RtState = 'initialized'
  private socket?: SocketLike
  private readonly channels = new Map<string, Channel>()
  private readonly options: RtOptions
  private attempt = 0
  private manual = false
  private activityTimeoutMs = 30_000
  private idleTimer?: ReturnType<typeof setTimeout>
  private pongTimer?: ReturnType<typeof setTimeout>
  private retryTimer?: ReturnType<typeof setTimeout>
  private readonly resubscribeTimers = new Set<ReturnType<typeof setTimeout>>()
  private waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = []

  constructor(options: RtOptions = {}) {
    this.options = options
  }

  /** Opens the socket; resolves once the server has sent `svc:connection_established`. */
  connect(): Promise<void> {
    this.manual = false
    if (this.state === 'connected') return Promise.resolve()
    const ready = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }))
    if (this.state !== 'connecting') this.open()
    return ready
  }

  /** A public channel. @example `rt.channel('news').listen('Published', fn)` */
  channel(name: string): Channel {
    return this.subscription(name, () => new Channel(name, this))
  }

  /** A private channel (`private-` is added). @example `rt.private('orders.1')` */
  private(name: string): PrivateChannel {
    const full = name.startsWith('private-') ? name : `private-${name}`
    return this.subscription(full, () => new PrivateChannel(full, this)) as PrivateChannel
  }

  /** A presence channel (`presence-` is added). @example `rt.join('chat').here(fn)` */
  join(name: string): PresenceChannel {
    const full = name.startsWith('presence-') ? name : `presence-${name}`
    return this.subscription(full, () => new PresenceChannel(full, this)) as PresenceChannel
  }

  /** An end-to-end encrypted channel (`private-encrypted-` is added). @example `rt.encryptedPrivate('vault.1')` */
  encryptedPrivate(name: string): EncryptedChannel {
    const full = name.startsWith('private-encrypted-') ? name : `private-encrypted-${name}`
    return this.subscription(full, () => new EncryptedChannel(full, this)) as EncryptedChannel
  }

  /** Leaves a channel in every form (`name`, `private-name`, `presence-name`, `private-encrypted-name`). @example `rt.leave('chat')` */
  leave(name: string): void {
    const bare = name.replace(/^(private-encrypted-|private-|presence-)/, '')
    for (const full of [bare, `private-${bare}`, `presence-${bare}`, `private-encrypted-${bare}`]) {
      if (!this.channels.delete(full)) continue
      if (this.state === 'connected') this.send({ event: 'unsubscribe', data: { channel: full } })
    }
  }

  /** Closes the socket for good (no reconnect). @example `rt.disconnect()` */
  disconnect(): void {
    this.manual = true
    this.clearTimers()
    this.socket?.close(1000, 'Client disconnect')
    this.socket = undefined
    this.socketId = undefined
    this.setState('disconnected')
  }

  /** `{ 'X-Socket-ID': id }` while connected, for `toOthers()`. @example `fetch(url, { headers: rt.socketIdHeader() })` */
  socketIdHeader(): Record<string, string> {
    return this.socketId ? { 'X-Socket-ID': this.socketId } : {}
  }

  /** `fetch` that sends cookies and `X-Socket-ID`. @example `await rt.fetch('/messages', { method: 'POST', body })` */
  fetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    for (const [name, value] of Object.entries(this.socketIdHeader())) headers.set(name, value)
    const token = page.xsrfToken()
    if (token && !headers.has('X-XSRF-TOKEN')) headers.set('X-XSRF-TOKEN', token)
    return this.fetcher()(input, { credentials: 'include', ...init, headers })
  }

  /** @internal */
  send(frame: object): void {
    if (this.socket && this.socket.readyState === 1) this.socket.send(JSON.stringify(frame))
  }

  /** Authorises an encrypted channel again for a fresh key (its events stopped opening). @internal */
  async refreshKey(channel: EncryptedChannel): Promise<void> {
    const socketId = this.socketId
    if (!socketId) return
    const key = channel.sealed?.channelKey((await this.authorize(channel.name, socketId)).shared_secret)
    if (key && this.socketId === socketId) channel.key = key
  }

  private subscription(name: string, make: () => Channel): Channel {
    let channel = this.channels.get(name)
    if (!channel) {
      channel = make()
      // Their events arrive sealed: better an error now than ciphertext in a listener.
      if (name.startsWith('private-encrypted-') && !(channel instanceof EncryptedChannel))
        throw new Error(`${name} is an end-to-end encrypted channel: listen to it with rt.encryptedPrivate().`)
      this.channels.set(name, channel)
      if (this.state === 'connected') void this.subscribe(channel)
    }
    return channel
  }

  private open(): void {
    this.setState('connecting')
    const Socket = (this.options.WebSocket ?? (globalThis as { WebSocket?: SocketConstructor }).WebSocket) as SocketConstructor | undefined
    if (!Socket) throw new Error('No WebSocket available: pass the `WebSocket` option (for example from the "ws" package).')
    const socket = new Socket(this.wsUrl())
    this.socket = socket
    socket.onmessage = (event) => this.receive(String(event.data))
    socket.onclose = (event) => {
      if (this.socket === socket) this.closed(event.code, event.reason ?? '')
    }
    socket.onerror = () => {}
  }

  private receive(text: string): void {
    let frame: Frame
    try {
      frame = JSON.parse(text) as Frame
    } catch {
      return
    }
    this.resetIdle()
    if (frame.event === 'svc:connection_established') return this.established(frame.data)
    if (frame.event === 'svc:pong') return
    if (frame.channel) {
      const channel = this.channels.get(frame.channel)
      channel?.handle(frame)
      if (channel && frame.event === 'svc:error' && frame.data?.code === TRY_AGAIN) this.resubscribeLater(channel)
      if (channel && frame.event === 'svc:subscription_succeeded') channel.retries = 0
      return
    }
    if (frame.event === 'svc:error' && frame.data?.code >= 4000 && frame.data?.code <= 4099) this.fatal = frame.data
  }

  private fatal?: { code: number; message: string }

  private established(data: { socket_id: string; activity_timeout?: number }): void {
    this.socketId = data.socket_id
    this.activityTimeoutMs = (data.activity_timeout ?? 30) * 1000
    this.attempt = 0
    this.setState('connected')
    for (const waiter of this.waiters.splice(0)) waiter.resolve()
    for (const channel of this.channels.values()) void this.subscribe(channel)
    this.resetIdle()
  }

  /** Private and presence channels are authorised again for each new socket id. */
  private async subscribe(channel: Channel): Promise<void> {
    channel.subscribed = false
    const socketId = this.socketId
    if (!/^(private-|presence-)/.test(channel.name)) return this.send({ event: 'subscribe', data: { channel: channel.name } })
    try {
      const signed = await this.authorize(channel.name, socketId!)
      if (this.socketId !== socketId || this.channels.get(channel.name) !== channel) return
      if (channel instanceof EncryptedChannel) {
        // Loaded only by pages that use encrypted channels: NaCl is most of the client's size.
        channel.sealed ??= await import('./sealed.ts')
        channel.key = channel.sealed.channelKey(signed.shared_secret)
        if (!channel.key)
          return channel.fail({
            code: 4304,
            message: `The auth endpoint gave no valid shared_secret for ${channel.name}: is it an encrypted channel on the server?`,
          })
      }
      this.send({
        event: 'subscribe',
        data: { channel: channel.name, auth: signed.auth, ...(signed.channel_data ? { channel_data: signed.channel_data } : {}) },
      })
    } catch (error) {
      channel.fail({ code: 4304, message: (error as Error).message })
    }
  }

  /** A refusal with 4310 is temporary (the server's Redis is down): subscribe again after a backoff, for as long as it lasts. */
  private resubscribeLater(channel: Channel): void {
    const { initialDelayMs = 500, maxDelayMs = 10_000 } = typeof this.options.reconnect === 'object' ? this.options.reconnect : {}
    const timer = setTimeout(
      () => {
        this.resubscribeTimers.delete(timer)
        if (this.state === 'connected' && this.channels.get(channel.name) === channel && !channel.subscribed) void this.subscribe(channel)
      },
      backoff(channel.retries++, initialDelayMs, maxDelayMs),
    )
    this.resubscribeTimers.add(timer)
  }

  private async authorize(channel: string, socketId: string): Promise<{ auth: string; channel_data?: string; shared_secret?: string }> {
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', ...this.options.headers }
    const token = page.xsrfToken()
    if (token) headers['X-XSRF-TOKEN'] = token
    const response = await this.fetcher()(this.authEndpoint(), {
      method: 'POST',
      credentials: 'include',
      headers,
      body: JSON.stringify({ socket_id: socketId, channel_name: channel }),
    })
    if (!response.ok) throw new Error(`Authorising ${channel} failed with HTTP ${response.status}.`)
    return (await response.json()) as { auth: string; channel_data?: string; shared_secret?: string }
  }

  private closed(code: number, reason: string): void {
    this.clearTimers()
    this.socket = undefined
    this.socketId = undefined
    for (const channel of this.channels.values()) channel.subscribed = false
    if (this.manual) return
    const fatal = code >= 4000 && code <= 4099
    const reconnect = this.options.reconnect ?? true
    if (fatal || reconnect === false) {
      const error = this.fatal ?? { code, message: reason || 'Connection closed.' }
      this.setState(fatal ? 'unavailable' : 'disconnected')
      for (const waiter of this.waiters.splice(0)) waiter.reject(Object.assign(new Error(error.message), { code: error.code }))
      return
    }
    const { initialDelayMs = 500, maxDelayMs = 10_000 } = typeof reconnect === 'object' ? reconnect : {}
    this.setState('connecting')
    this.retryTimer = setTimeout(() => this.open(), backoff(this.attempt++, initialDelayMs, maxDelayMs))
  }

  /** After activity_timeout of silence, ping; no answer soon after means a dead socket. */
  private resetIdle(): void {
    clearTimeout(this.idleTimer)
    clearTimeout(this.pongTimer)
    this.idleTimer = setTimeout(() => {
      this.send({ event: 'ping', data: {} })
      this.pongTimer = setTimeout(() => this.socket?.close(4201, 'Pong timeout'), PONG_WAIT_MS)
    }, this.activityTimeoutMs)
  }

  private clearTimers(): void {
    clearTimeout(this.idleTimer)
    clearTimeout(this.pongTimer)
    clearTimeout(this.retryTimer)
    for (const timer of this.resubscribeTimers) clearTimeout(timer)
    this.resubscribeTimers.clear()
  }

  private setState(state: RtState): void {
    if (state === this.state) return
    const previous = this.state
    this.state = state
    this.options.onStateChange?.(state, previous)
  }

  private basePath(): string {
    return (this.options.basePath ?? page.basePath()).replace(/\/+$/, '')
  }

  private wsUrl(): string {
    if (this.options.wsUrl) return this.options.wsUrl
    const location = page.location()
    if (!location) throw new Error('No page to derive the socket address from: pass `wsUrl`.')
    const secure = this.options.forceTLS || location.protocol === 'https:'
    return `${secure ? 'wss' : 'ws'}://${location.host}${this.basePath()}/broadcasting/socket`
  }

  private authEndpoint(): string {
    const endpoint = this.options.authEndpoint ?? `${this.basePath()}/broadcasting/auth`
    if (/^https?:\/\//.test(endpoint) || page.location()) return endpoint
    // In Node there is no page: resolve against the socket's own server.
    return new URL(endpoint, this.wsUrl().replace(/^ws/, 'http')).toString()
  }

  private fetcher(): typeof fetch {
    return this.options.fetch ?? globalThis.fetch.bind(globalThis)
  }
}

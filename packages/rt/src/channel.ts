import type { Frame, Member } from './types.ts'

type Listener = (data: any, frame: Frame) => void

/** What a channel needs from its client. @internal */
export interface ChannelHost {
  send(frame: object): void
  /** Authorises an encrypted channel again, for a fresh key. */
  refreshKey?(channel: EncryptedChannel): Promise<void>
}

/** Reported to `.error(fn)` when an event of an encrypted channel does not open, even with a fresh key. */
export const UNDECRYPTABLE = 4390

/**
 * A subscription. `listen(event, fn)` receives each broadcast's `data`.
 *
 * @example
 * ```ts
 * rt.channel('news').listen('Published', (post) => render(post))
 * ```
 */
export class Channel {
  protected readonly listeners = new Map<string, Set<Listener>>()
  protected readonly errorHandlers = new Set<(error: { code: number; message: string }) => void>()
  protected readonly readyHandlers = new Set<() => void>()
  /** True once the server confirmed the subscription (again after each reconnect). */
  subscribed = false
  /** Subscriptions refused for now (4310) in a row, for the retry backoff. @internal */
  retries = 0

  constructor(
    readonly name: string,
    protected readonly host: ChannelHost,
  ) {}

  /** Listens for an event; a leading `.` is accepted and ignored (Echo style). */
  listen(event: string, fn: Listener): this {
    const name = event.replace(/^\./, '')
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(fn)
    return this
  }

  /** Stops one listener, or every listener of the event. @example `channel.stopListening('Published')` */
  stopListening(event: string, fn?: Listener): this {
    const name = event.replace(/^\./, '')
    if (fn) this.listeners.get(name)?.delete(fn)
    else this.listeners.delete(name)
    return this
  }

  /** Called when the server refuses the subscription (for example, authorisation failed; code 4310, Redis down, is retried by itself). */
  error(fn: (error: { code: number; message: string }) => void): this {
    this.errorHandlers.add(fn)
    return this
  }

  /** Called each time the subscription succeeds (first time and after reconnects). */
  subscribedTo(fn: () => void): this {
    this.readyHandlers.add(fn)
    return this
  }

  /** @internal */
  handle(frame: Frame): void {
    if (frame.event === 'svc:subscription_succeeded') {
      this.subscribed = true
      this.onSubscribed(frame)
      for (const fn of this.readyHandlers) fn()
      return
    }
    if (frame.event === 'svc:error') {
      for (const fn of this.errorHandlers) fn(frame.data)
      return
    }
    this.onFrame(frame)
    this.emit(frame)
  }

  /** Runs the listeners of a frame's event. @internal */
  protected emit(frame: Frame): void {
    for (const fn of this.listeners.get(frame.event) ?? []) fn(frame.data, frame)
  }

  /** @internal */
  fail(error: { code: number; message: string }): void {
    for (const fn of this.errorHandlers) fn(error)
  }

  protected onSubscribed(_frame: Frame): void {}
  protected onFrame(_frame: Frame): void {}
}

/**
 * A `private-` channel: authorised through the app, and able to whisper
 * (client events, when the connection allows them).
 *
 * @example
 * ```ts
 * const room = rt.private('room.1').listenForWhisper('typing', (e) => show(e.name))
 * room.whisper('typing', { name: 'Ada' })
 * ```
 */
export class PrivateChannel extends Channel {
  /** Sends `client-<event>` to the other members. */
  whisper(event: string, data: unknown): this {
    this.host.send({ event: `client-${event}`, channel: this.name, data })
    return this
  }

  listenForWhisper(event: string, fn: (data: any, frame: Frame) => void): this {
    return this.listen(`client-${event}`, fn)
  }
}

/**
 * A `presence-` channel: who is here, who joins, who leaves.
 *
 * @example
 * ```ts
 * rt.join('chat').here((members) => list(members)).joining((m) => add(m)).leaving((m) => remove(m))
 * ```
 */
export class PresenceChannel extends PrivateChannel {
  /** Current members, by user id. */
  readonly members = new Map<string, Member>()
  private readonly hereHandlers = new Set<(members: Member[]) => void>()
  private readonly joiningHandlers = new Set<(member: Member) => void>()
  private readonly leavingHandlers = new Set<(member: Member) => void>()

  here(fn: (members: Member[]) => void): this {
    this.hereHandlers.add(fn)
    if (this.subscribed) fn([...this.members.values()])
    return this
  }

  joining(fn: (member: Member) => void): this {
    this.joiningHandlers.add(fn)
    return this
  }

  leaving(fn: (member: Member) => void): this {
    this.leavingHandlers.add(fn)
    return this
  }

  protected override onSubscribed(frame: Frame): void {
    this.members.clear()
    for (const member of (frame.data?.members ?? []) as Member[]) this.members.set(String(member.user_id), member)
    for (const fn of this.hereHandlers) fn([...this.members.values()])
  }

  protected override onFrame(frame: Frame): void {
    if (frame.event === 'svc:member_added') {
      const member = frame.data as Member
      this.members.set(String(member.user_id), member)
      for (const fn of this.joiningHandlers) fn(member)
    } else if (frame.event === 'svc:member_removed') {
      const id = String(frame.data?.user_id)
      const member = this.members.get(id) ?? { user_id: frame.data?.user_id }
      this.members.delete(id)
      for (const fn of this.leavingHandlers) fn(member)
    }
  }
}

/**
 * A `private-encrypted-` channel: authorised like a private one, and its
 * events arrive sealed end to end (`{ nonce, ciphertext }`), opened here
 * with the `shared_secret` the auth endpoint returned. An event that does
 * not open is retried once with a fresh key (the server's master key may
 * have changed), then dropped and reported to `.error(fn)` with code 4390.
 * No whispers: client events would travel unsealed.
 *
 * @example
 * ```ts
 * rt.encryptedPrivate('vault.1').listen('PinChanged', (e) => show(e.pin))
 * ```
 */
export class EncryptedChannel extends Channel {
  /** The channel key, set by each authorisation. @internal */
  key?: Uint8Array
  /** The decryption code, loaded with the first authorisation (a separate file in the browser build). @internal */
  sealed?: typeof import('./sealed.ts')
  private refreshing?: Promise<void>

  protected override emit(frame: Frame): void {
    if (frame.event.startsWith('svc:')) return super.emit(frame)
    const opened = this.key && this.sealed?.openSealed(frame.data, this.key)
    if (opened) return super.emit({ ...frame, data: opened.value })
    void this.retry(frame)
  }

  private async retry(frame: Frame): Promise<void> {
    const tried = this.key
    // One refresh for every event that arrives sealed under a key this client does not have yet.
    this.refreshing ??= Promise.resolve(this.host.refreshKey?.(this)).finally(() => (this.refreshing = undefined))
    await this.refreshing.catch(() => {})
    const opened = this.key && this.key !== tried ? this.sealed?.openSealed(frame.data, this.key) : undefined
    if (opened) return super.emit({ ...frame, data: opened.value })
    this.fail({ code: UNDECRYPTABLE, message: `An event "${frame.event}" on ${this.name} could not be decrypted, even with a fresh key: dropped.` })
  }
}

/** A model that can name a channel after itself. */
export interface ChannelNameable {
  /** Overrides the default `app.models.Order.1`-style name. */
  broadcastChannel?(): string
  getKey(): unknown
}

/**
 * The dotted name of a model for channels: the lower-case module path, the
 * class name and the key (`app.models.Order.1`), or the model's own
 * `broadcastChannel()`. The module path comes from the class's static
 * `broadcastNamespace` (default `app.models`): TypeScript classes carry no
 * module path at run time.
 *
 * @example
 * ```ts
 * channelNameFor(order) // 'app.models.Order.42'
 * ```
 */
export function channelNameFor(model: ChannelNameable): string {
  if (typeof model.broadcastChannel === 'function') return model.broadcastChannel()
  const ctor = model.constructor as { name: string; broadcastNamespace?: string }
  const namespace = (ctor.broadcastNamespace ?? 'app.models').toLowerCase()
  return `${namespace}.${ctor.name}.${String(model.getKey())}`
}

function nameOf(target: string | ChannelNameable): string {
  return typeof target === 'string' ? target : channelNameFor(target)
}

/**
 * A public channel: anyone connected may listen.
 *
 * @example
 * ```ts
 * broadcastOn() { return [new Channel('announcements')] }
 * ```
 */
export class Channel {
  readonly name: string
  constructor(name: string | ChannelNameable, prefix = '') {
    this.name = prefix + nameOf(name)
  }
  toString(): string {
    return this.name
  }
}

/**
 * `private-<name>`: whoever the channel's callback allows.
 *
 * @example
 * ```ts
 * new PrivateChannel(`orders.${order.id}`) // private-orders.42
 * new PrivateChannel(user)                  // private-app.models.User.1
 * ```
 */
export class PrivateChannel extends Channel {
  constructor(name: string | ChannelNameable) {
    super(name, 'private-')
  }
}

/**
 * `presence-<name>`: like private, and members see each other.
 *
 * @example
 * ```ts
 * new PresenceChannel('chat.1')
 * ```
 */
export class PresenceChannel extends Channel {
  constructor(name: string | ChannelNameable) {
    super(name, 'presence-')
  }
}

/**
 * `private-encrypted-<name>`: private, with the payload sealed end to end.
 *
 * @example
 * ```ts
 * new EncryptedPrivateChannel('vault.1')
 * ```
 */
export class EncryptedPrivateChannel extends Channel {
  constructor(name: string | ChannelNameable) {
    super(name, 'private-encrypted-')
  }
}

const PREFIXES = ['private-encrypted-', 'private-', 'presence-'] as const

/**
 * The channel name without its first visibility prefix (only the first:
 * `private-private-x` → `private-x`), as channel patterns are declared.
 *
 * @example
 * ```ts
 * normalizeChannelName('presence-chat.1') // 'chat.1'
 * ```
 */
export function normalizeChannelName(channel: string): string {
  for (const prefix of PREFIXES) if (channel.startsWith(prefix)) return channel.slice(prefix.length)
  return channel
}

/**
 * The kind of channel a name denotes.
 *
 * @example
 * ```ts
 * channelKind('private-encrypted-x') // 'encrypted'
 * ```
 */
export function channelKind(channel: string): 'public' | 'private' | 'presence' | 'encrypted' {
  if (channel.startsWith('private-encrypted-')) return 'encrypted'
  if (channel.startsWith('private-')) return 'private'
  if (channel.startsWith('presence-')) return 'presence'
  return 'public'
}

/**
 * True for channels that need authorisation (private, presence, encrypted).
 *
 * @example
 * ```ts
 * isGuardedChannel('orders') // false
 * ```
 */
export function isGuardedChannel(channel: string): boolean {
  return channelKind(channel) !== 'public'
}

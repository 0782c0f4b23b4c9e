import type { Model } from '../../core/index.ts'
import { compileChannelPattern, matchChannel, type ChannelPattern } from './channel-pattern.ts'
import { normalizeChannelName } from './channels.ts'

/** A channel callback: the user, then the pattern's parameters (models when bound). */
export type ChannelCallback = (user: any, ...params: any[]) => unknown

/** A channel class: `join(user, ...params)`. */
export type ChannelClass = new (...args: any[]) => { join(user: any, ...params: any[]): unknown }

/** Options of `Broadcast.channel`. */
export interface ChannelOptions {
  /** Guards tried in order to find the user (default: the request's user). */
  guards?: string[]
  /** Parameters bound to models, loaded by key before the callback: `{ order: Order }`. */
  bind?: Record<string, { findOrFail?: unknown; find(key: unknown): Promise<Model | undefined> }>
}

/** A declared channel. */
export interface ChannelDefinition extends ChannelPattern {
  handler: ChannelCallback | ChannelClass
  options: ChannelOptions
}

/**
 * The channels an app authorises (`routes/channels.ts`): patterns with
 * `{param}` segments, matched against the channel name without its
 * visibility prefix.
 *
 * @example
 * ```ts
 * registry.channel('orders.{order}', (user, order) => user.id === order.user_id, { bind: { order: Order } })
 * registry.find('private-orders.42') // { definition, params: { order: '42' } }
 * ```
 */
export class ChannelRegistry {
  private readonly definitions: ChannelDefinition[] = []

  /** Declares a channel. @example `registry.channel('chat.{room}', callback)` */
  channel(pattern: string, handler: ChannelCallback | ChannelClass, options: ChannelOptions = {}): this {
    this.definitions.push({ ...compileChannelPattern(pattern), handler, options })
    return this
  }

  /** The first definition matching a channel name, with its parameters. @example `registry.find('private-orders.1')` */
  find(channel: string): { definition: ChannelDefinition; params: Record<string, string> } | undefined {
    const name = normalizeChannelName(channel)
    for (const definition of this.definitions) {
      const params = matchChannel(definition, name)
      if (params) return { definition, params }
    }
    return undefined
  }

  /** Every definition, for `channel:list`. @example `registry.all()` */
  all(): readonly ChannelDefinition[] {
    return this.definitions
  }
}

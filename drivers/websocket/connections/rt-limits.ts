import type { Peer } from 'crossws'
import type { RateLimiterMemory } from 'rate-limiter-flexible'
import type { RtConfig } from '../rt-config.ts'

/**
 * What one client address may hold of an rt process: connections at once
 * (`max_connections_per_address`) and subscriptions per window, per socket
 * (`subscribe_rate`) and per address (`subscribe_rate_per_address`). Without
 * them one address could open thousands of sockets, each on 100 channels,
 * and take the process's memory and its HTTP answers with it.
 *
 * The rates are rate-limiter-flexible's in-memory limiters, not the app's
 * `RateLimiters`: a socket lives in one process, and a subscription must not
 * wait on the throttle store's Redis.
 *
 * @example
 * ```ts
 * const limits = new RtLimits(config)
 * const address = limits.address(peer)
 * const refusal = limits.admit(address) // a message, or undefined (then counted until release)
 * if (!(await limits.takeSubscribe(connection.socketId, address))) refuse()
 * limits.release(address)
 * ```
 */
export class RtLimits {
  private readonly held = new Map<string, number>()
  /** The two rates, made by the first subscribe frame: rate-limiter-flexible loads then, not when the server starts. */
  private rates?: Promise<{ perSocket?: RateLimiterMemory; perAddress?: RateLimiterMemory; Refusal: typeof import('rate-limiter-flexible').RateLimiterRes }>
  private readonly proxies: Set<string>

  constructor(private readonly config: RtConfig) {
    this.proxies = new Set(config.trusted_proxies.map(plainAddress))
  }

  /**
   * The client address a socket counts against: the peer's, or, when the peer
   * is a trusted proxy, the last `X-Forwarded-For` entry (the one that proxy added).
   */
  address(peer: Peer): string {
    const remote = plainAddress(peer.remoteAddress ?? '')
    if (!this.proxies.has(remote)) return remote
    // Headers are read only for proxied sockets: reading them keeps a Headers object for the socket's life.
    const forwarded = peer.request.headers
      .get('x-forwarded-for')
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .pop()
    return forwarded ? plainAddress(forwarded) : remote
  }

  /** Counts a connection for `address`, or says why it is refused (nothing counted then). */
  admit(address: string): string | undefined {
    const max = this.config.max_connections_per_address
    const count = this.held.get(address) ?? 0
    if (max !== null && count >= max) return `This address holds its maximum of ${max} connections.`
    this.held.set(address, count + 1)
    return undefined
  }

  /** Forgets a connection {@link admit} counted. */
  release(address: string): void {
    const count = (this.held.get(address) ?? 0) - 1
    if (count > 0) this.held.set(address, count)
    else this.held.delete(address)
  }

  /** Counts one subscribe frame; false when the socket or its address is over its rate. */
  async takeSubscribe(socketId: string, address: string): Promise<boolean> {
    const { perSocket, perAddress, Refusal } = await (this.rates ??= this.makeRates())
    try {
      await perSocket?.consume(socketId)
      await perAddress?.consume(address)
      return true
    } catch (error) {
      if (error instanceof Refusal) return false
      throw error
    }
  }

  private async makeRates() {
    const { RateLimiterMemory, RateLimiterRes } = await import('rate-limiter-flexible')
    const rate = (limit: { limit: number; per_seconds: number } | null, keyPrefix: string) =>
      limit ? new RateLimiterMemory({ points: limit.limit, duration: limit.per_seconds, keyPrefix }) : undefined
    return {
      perSocket: rate(this.config.subscribe_rate, 'rt-subscribe-socket'),
      perAddress: rate(this.config.subscribe_rate_per_address, 'rt-subscribe-address'),
      Refusal: RateLimiterRes,
    }
  }
}

/** `::ffff:127.0.0.1` (IPv4 on a dual-stack socket) is `127.0.0.1`. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
}

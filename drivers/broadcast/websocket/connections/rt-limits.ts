import type { Peer } from 'crossws'
import type { RateLimiterMemory } from 'rate-limiter-flexible'
import { plainAddress, resolveForwarded, TrustedProxies } from '../../../../core/index.ts'
import type { RtConfig } from '../rt-config.ts'
import { requestHeader } from './request-header.ts'

/** One client address and the sockets it holds: one object per address, shared by its sockets. */
export interface AddressSlot {
  readonly address: string
  count: number
}

/**
 * What one client address may hold of an rt process: connections at once
 * (`max_connections_per_address`) and subscriptions per window across its
 * sockets (`subscribe_rate_per_address`). Without them one address could
 * open thousands of sockets, each on 100 channels, and take the process's
 * memory and its HTTP answers with it. (The per-socket subscribe rate is
 * counted on the connection itself: see `Connection.takeSubscribe`.)
 *
 * The per-address rate is rate-limiter-flexible's in-memory limiter, not the
 * app's `RateLimiters`: a socket lives in one process, and a subscription
 * must not wait on the throttle store's Redis.
 *
 * @example
 * ```ts
 * const limits = new RtLimits(config, app.service('proxies'))
 * const slot = limits.admit(limits.address(peer)) // a refusal message, or the address's slot (counted until release)
 * if (typeof slot !== 'string' && !(await limits.takeSubscribe(slot))) refuse()
 * limits.release(slot)
 * ```
 */
export class RtLimits {
  private readonly held = new Map<string, AddressSlot>()
  /** The per-address rate, made by the first subscribe frame: rate-limiter-flexible loads then, not when the server starts. */
  private rate?: Promise<{ perAddress: RateLimiterMemory; Refusal: typeof import('rate-limiter-flexible').RateLimiterRes } | undefined>
  constructor(
    private readonly config: RtConfig,
    /** `http.trusted_proxies`: sockets find their client as requests do. */
    private readonly proxies: TrustedProxies = TrustedProxies.none,
  ) {}

  /** Whether any limit needs a socket's address; without one, sockets are not told apart by address. */
  get byAddress(): boolean {
    return this.config.max_connections_per_address !== null || this.config.subscribe_rate_per_address !== null
  }

  /**
   * The client address a socket counts against: the peer's, or, when the
   * peer is a trusted proxy (`http.trusted_proxies`), the client it
   * forwarded for, by the kernel's rule (`request.ip()` gives the same).
   */
  address(peer: Peer): string {
    const remote = remoteAddress(peer)
    if (!this.proxies.configured) return plainAddress(remote)
    return resolveForwarded(remote, (name) => requestHeader(peer.request, name), this.proxies).ip ?? ''
  }

  /** Counts a connection for `address` and gives its slot, or says why it is refused (nothing counted then). */
  admit(address: string): AddressSlot | string {
    const max = this.config.max_connections_per_address
    const slot = this.held.get(address)
    if (max !== null && (slot?.count ?? 0) >= max) return `This address holds its maximum of ${max} connections.`
    if (slot) slot.count++
    else this.held.set(address, { address, count: 1 })
    return slot ?? this.held.get(address)!
  }

  /** Forgets a connection {@link admit} counted. */
  release(slot: AddressSlot): void {
    if (--slot.count <= 0 && this.held.get(slot.address) === slot) this.held.delete(slot.address)
  }

  /** Counts one subscribe frame against the address; false when it is over its rate. */
  async takeSubscribe(slot: AddressSlot | undefined): Promise<boolean> {
    if (!slot || this.config.subscribe_rate_per_address === null) return true
    const rate = await (this.rate ??= this.makeRate())
    try {
      await rate?.perAddress.consume(slot.address)
      return true
    } catch (error) {
      if (rate && error instanceof rate.Refusal) return false
      throw error
    }
  }

  private async makeRate() {
    const limit = this.config.subscribe_rate_per_address
    if (!limit) return undefined
    const { RateLimiterMemory, RateLimiterRes } = await import('rate-limiter-flexible')
    return {
      perAddress: new RateLimiterMemory({ points: limit.limit, duration: limit.per_seconds, keyPrefix: 'rt-subscribe-address' }),
      Refusal: RateLimiterRes,
    }
  }
}

/** What of a crossws Node peer and its socket the address is read from (crossws's and Node's own fields). */
interface NodePeerInternals {
  _internal?: { nodeReq?: { socket?: { _peername?: unknown; _handle?: { getpeername?(out: { address?: string }): number } } } }
}

/**
 * The peer's address, read from the socket's handle as Node's own
 * `remoteAddress` does, but without the copy Node then keeps on the socket
 * for its life (an object and a string, about 88 bytes a socket: most of
 * what the per-address limits cost). Any other peer (or a Node that changed
 * its internals) is read through `remoteAddress`.
 */
function remoteAddress(peer: Peer): string {
  const socket = (peer as unknown as NodePeerInternals)._internal?.nodeReq?.socket
  const handle = socket?._handle
  if (handle?.getpeername && socket?._peername === undefined) {
    const out: { address?: string } = {}
    if (handle.getpeername(out) === 0 && out.address) return out.address
  }
  return peer.remoteAddress ?? ''
}

import { BlockList, isIP } from 'node:net'

/** The named ranges `http.trusted_proxies` takes besides addresses and CIDR ranges (proxy-addr's names, plus `private`). */
const NAMED_RANGES: Record<string, ReadonlyArray<readonly [network: string, prefix: number]>> = {
  loopback: [
    ['127.0.0.0', 8],
    ['::1', 128],
  ],
  linklocal: [
    ['169.254.0.0', 16],
    ['fe80::', 10],
  ],
  uniquelocal: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['fc00::', 7],
  ],
}
NAMED_RANGES.private = NAMED_RANGES.uniquelocal!

/** The names an entry of `http.trusted_proxies` may be, for messages and docs. @example `PROXY_RANGE_NAMES.includes('loopback') // true` */
export const PROXY_RANGE_NAMES = ['loopback', 'private', 'uniquelocal', 'linklocal'] as const

/**
 * The address as Kiln reports it: `::ffff:10.0.0.1` (IPv4 on a dual-stack
 * socket) becomes `10.0.0.1`, so one client has one address whichever way
 * the server listens; anything else is returned as it is.
 *
 * @example
 * ```ts
 * plainAddress('::ffff:203.0.113.7') // '203.0.113.7'
 * ```
 */
export function plainAddress(address: string): string {
  return address.length > 7 && address.charCodeAt(0) === 58 /* : */ && address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
}

/** One entry of the setting, parsed: what to add to the block list, or why it cannot be. */
type ParsedEntry = { ranges: Array<readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6']> } | { any: true } | { problem: string }

function parseEntry(raw: string): ParsedEntry {
  const entry = raw.trim().toLowerCase()
  if (entry === '*') return { any: true }
  const named = NAMED_RANGES[entry]
  if (named && Object.hasOwn(NAMED_RANGES, entry))
    return { ranges: named.map(([network, prefix]) => [network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6'] as const) }
  const slash = entry.indexOf('/')
  const address = plainAddress(slash === -1 ? entry : entry.slice(0, slash))
  const family = isIP(address)
  const problem = `"${raw}" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or a named range (${PROXY_RANGE_NAMES.join(', ')}, or * for any peer)`
  if (family === 0 || address.includes('%')) return { problem }
  const max = family === 4 ? 32 : 128
  let prefix = max
  if (slash !== -1) {
    const bits = entry.slice(slash + 1)
    if (!/^\d{1,3}$/.test(bits)) return { problem }
    prefix = Number(bits)
    // `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8.
    if (family === 4 && address !== entry.slice(0, slash)) prefix -= 96
    if (prefix < 0 || prefix > max) return { problem: `"${raw}": ${family === 4 ? 'an IPv4' : 'an IPv6'} range's prefix is 0 to ${max}` }
  }
  return { ranges: [[address, prefix, family === 4 ? 'ipv4' : 'ipv6']] }
}

/**
 * Why an entry of `http.trusted_proxies` is refused, or undefined when it is
 * valid (the config schema's check: an invalid entry stops the boot, named).
 *
 * @example
 * ```ts
 * trustedProxyProblem('10.0.0.300') // '"10.0.0.300" is not an IP address, a CIDR range ...'
 * trustedProxyProblem('10.0.0.0/8') // undefined
 * ```
 */
export function trustedProxyProblem(entry: string): string | undefined {
  const parsed = parseEntry(entry)
  return 'problem' in parsed ? parsed.problem : undefined
}

/**
 * The proxies `http.trusted_proxies` names, as a set of addresses to check
 * peers and forwarded hops against: addresses and CIDR ranges in a Node
 * `BlockList` (IPv4 and IPv6; an IPv4-mapped IPv6 address is checked as its
 * IPv4 address), the named ranges, and `*`, which trusts the connecting peer
 * whatever its address (not the hops it forwards: those are checked against
 * the other entries, so `*` alone believes the one hop the peer added).
 *
 * @example
 * ```ts
 * const proxies = TrustedProxies.from(['10.0.0.0/8', 'loopback'])
 * proxies.trustsPeer('10.1.2.3') // true
 * proxies.trusts('203.0.113.7') // false
 * ```
 */
export class TrustedProxies {
  /** Nothing trusted: every request's address is its peer's, and forwarding headers are never read. */
  static readonly none = new TrustedProxies(new BlockList(), false, false)

  private constructor(
    private readonly list: BlockList,
    private readonly anyPeer: boolean,
    /** False when nothing is trusted: the request path checks this and reads no header. */
    readonly configured: boolean,
  ) {}

  /**
   * The set for these entries (what the config schema accepted; an invalid
   * entry throws here, naming it).
   *
   * @example
   * ```ts
   * TrustedProxies.from(['127.0.0.1', '::1', '172.16.0.0/12'])
   * ```
   */
  static from(entries: readonly string[]): TrustedProxies {
    const list = new BlockList()
    let anyPeer = false
    let any = false
    for (const raw of entries) {
      if (raw.trim() === '') continue
      const parsed = parseEntry(raw)
      if ('problem' in parsed) throw new TypeError(`trusted_proxies: ${parsed.problem}`)
      any = true
      if ('any' in parsed) anyPeer = true
      else for (const [network, prefix, family] of parsed.ranges) list.addSubnet(network, prefix, family)
    }
    return any ? new TrustedProxies(list, anyPeer, true) : TrustedProxies.none
  }

  /** True when a forwarded hop's address (already plain) is a trusted proxy. @example `proxies.trusts('10.0.0.2')` */
  trusts(address: string): boolean {
    const family = isIP(address)
    if (family === 0) return false
    try {
      return this.list.check(address, family === 4 ? 'ipv4' : 'ipv6')
    } catch {
      // Anything the list will not read is no proxy of ours.
      return false
    }
  }

  /** True when the connecting peer is a trusted proxy: listed, or any peer under `*`. @example `proxies.trustsPeer(request.ip())` */
  trustsPeer(address: string): boolean {
    return this.anyPeer ? address !== '' : this.trusts(address)
  }
}

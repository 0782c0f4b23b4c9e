import { forwardedHost, forwardedPort, forwardedScheme, hopAddress, listEntryFromRight, parseForwarded } from './forwarded-values.ts'
import { plainAddress, type TrustedProxies } from './trusted-proxies.ts'

/** What a request's headers say about its client, believed only as far as its proxies are trusted. */
export interface ForwardedRequest {
  /** The client's address: the peer's, or the right-most untrusted hop a trusted proxy forwarded. Undefined without a peer. */
  ip: string | undefined
  /** The addresses from the client to this server: the client first, the peer last (only the part the trusted proxies vouch for). */
  ips: string[]
  /** `http` or `https` as the client's proxy received the request; undefined when no trusted proxy said. */
  scheme?: 'http' | 'https'
  /** The host the client asked for (`app.example`, `app.example:8443`); undefined when no trusted proxy said. */
  host?: string
  /** The port the client connected to; undefined when no trusted proxy said. */
  port?: string
}

/** Reads one request header (lower-case name); null or undefined when absent. */
export type HeaderReader = (name: string) => string | null | undefined

/** Most hops walked: past them the last one walked is the client (a real chain of proxies is a handful). @example `request.ips().length <= MAX_HOPS + 1` */
export const MAX_HOPS = 32

const X_FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port'] as const

/**
 * Works out a request's client address, its chain of addresses, and the
 * scheme, host and port its client used, from the peer (the address that
 * connected) and the forwarding headers, trusting them only as far as
 * `proxies` says.
 *
 * The rule:
 * - An untrusted peer's headers are never read: the peer is the client.
 * - Behind a trusted peer, the hops are walked from the right (the
 *   nearest proxy's entry first); every trusted hop is stepped over, and
 *   the first untrusted one is the client. If every hop is trusted, the
 *   left-most is. A hop that is no address (`unknown`, an obfuscated id,
 *   garbage) ends the walk: the client is the last address walked.
 * - The scheme, host and port come from the entry the proxy that received
 *   the client's connection wrote: in `Forwarded`, the client's own
 *   element; in `X-Forwarded-Proto`/`-Host`/`-Port`, the entry as many
 *   places from the right as that proxy is from this server (the left-most
 *   when the header has fewer entries: most proxies overwrite rather than
 *   append them).
 * - `X-Forwarded-*` and `Forwarded` are never mixed: when any
 *   `X-Forwarded-*` header is present, `Forwarded` is ignored. Nearly every
 *   proxy writes `X-Forwarded-For` and passes an unknown `Forwarded` header
 *   through untouched, so believing it beside them would let a client write
 *   its own.
 *
 * Nothing here throws, whatever the headers hold.
 *
 * @example
 * ```ts
 * const proxies = TrustedProxies.from(['10.0.0.0/8'])
 * const forwarded = resolveForwarded('10.0.0.2', (name) => request.headers.get(name), proxies)
 * forwarded.ip // '203.0.113.7' for "X-Forwarded-For: 203.0.113.7"
 * ```
 */
export function resolveForwarded(peer: string | undefined, header: HeaderReader, proxies: TrustedProxies): ForwardedRequest {
  const address = peer === undefined || peer === '' ? undefined : plainAddress(peer)
  if (address === undefined || !proxies.configured || !proxies.trustsPeer(address)) return { ip: address, ips: address === undefined ? [] : [address] }
  const values = X_FORWARDED.map((name) => header(name) ?? undefined)
  if (values.some((value) => value !== undefined)) return fromXForwarded(address, values as Array<string | undefined>, proxies)
  const forwarded = header('forwarded')
  if (forwarded) return fromForwarded(address, forwarded, proxies)
  return { ip: address, ips: [address] }
}

function fromXForwarded(peer: string, [forwardedFor, proto, host, port]: Array<string | undefined>, proxies: TrustedProxies): ForwardedRequest {
  // Walked from the right by position, without splitting the whole header.
  const chain = [peer]
  if (forwardedFor) {
    let end = forwardedFor.length
    while (end > 0 && chain.length <= MAX_HOPS) {
      const comma = forwardedFor.lastIndexOf(',', end - 1)
      const entry = forwardedFor.slice(comma + 1, end)
      end = comma === -1 ? 0 : comma
      if (entry.trim() === '') continue
      const hop = hopAddress(entry)
      if (hop === undefined) break
      chain.push(hop)
      if (!proxies.trusts(hop)) break
    }
  }
  // The proxy that received the client's connection is as many places from this server as the client, less one.
  const fromRight = Math.max(chain.length - 1, 1) - 1
  const result: ForwardedRequest = { ip: chain[chain.length - 1], ips: chain.reverse() }
  const scheme = proto === undefined ? undefined : forwardedScheme(listEntryFromRight(proto, fromRight) ?? '')
  const forwardedHostValue = host === undefined ? undefined : forwardedHost(listEntryFromRight(host, fromRight) ?? '')
  const forwardedPortValue = port === undefined ? undefined : forwardedPort(listEntryFromRight(port, fromRight) ?? '')
  if (scheme) result.scheme = scheme
  if (forwardedHostValue) result.host = forwardedHostValue
  if (forwardedPortValue) result.port = forwardedPortValue
  return result
}

function fromForwarded(peer: string, header: string, proxies: TrustedProxies): ForwardedRequest {
  const elements = parseForwarded(header)
  const chain = [peer]
  // The element whose `for` is the client: the proxy that received the client's connection wrote it.
  let clientElement = elements.length - 1
  for (let i = elements.length - 1; i >= 0 && chain.length <= MAX_HOPS; i--) {
    const hop = elements[i]?.for === undefined ? undefined : hopAddress(elements[i]!.for!)
    if (hop === undefined) break
    chain.push(hop)
    clientElement = i
    if (!proxies.trusts(hop)) break
  }
  const result: ForwardedRequest = { ip: chain[chain.length - 1], ips: chain.reverse() }
  const element = elements[clientElement]
  if (!element) return result
  const scheme = element.proto === undefined ? undefined : forwardedScheme(element.proto)
  const host = element.host === undefined ? undefined : forwardedHost(element.host)
  if (scheme) result.scheme = scheme
  if (host) result.host = host
  return result
}

/**
 * `url` with the scheme, host and port a trusted proxy forwarded (a new
 * URL; URL's setters keep a default port out of its text).
 *
 * @example
 * ```ts
 * forwardedUrl(new URL('http://10.0.0.5:3000/verify?x=1'), { ip: '203.0.113.7', ips: ['203.0.113.7', '10.0.0.2'], scheme: 'https', host: 'app.example' }).href
 * // 'https://app.example/verify?x=1'
 * ```
 */
export function forwardedUrl(url: URL, forwarded: ForwardedRequest): URL {
  const out = new URL(url.href)
  if (forwarded.scheme) out.protocol = `${forwarded.scheme}:`
  if (forwarded.host) {
    const bracket = forwarded.host.lastIndexOf(']')
    const colon = forwarded.host.lastIndexOf(':')
    const hasPort = colon > bracket
    out.hostname = hasPort ? forwarded.host.slice(0, colon) : forwarded.host
    out.port = hasPort ? forwarded.host.slice(colon + 1) : ''
  }
  if (forwarded.port) out.port = forwarded.port
  return out
}

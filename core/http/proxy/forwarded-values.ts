import { isIP } from 'node:net'
import { plainAddress } from './trusted-proxies.ts'

/**
 * The values proxies write, read without ever throwing: a hop's address
 * (with or without a port, brackets or quotes), a host, a port, a scheme,
 * and the RFC 7239 `Forwarded` header. Anything malformed reads as
 * undefined; the resolver then stops believing the chain there.
 */

/** Longest value worth reading: a hostname is at most 253 characters, an address far less. */
const MAX_VALUE = 300

/**
 * A forwarded hop's address, plain (`::ffff:` mapped IPv4 as IPv4), or
 * undefined for anything that is not one: `unknown`, an obfuscated id
 * (`_hidden`), garbage. Ports are dropped (`203.0.113.7:4711`,
 * `"[2001:db8::1]:4711"`); zone ids (`fe80::1%eth0`) are refused: they
 * name a network interface of the proxy, no client a limit could count.
 *
 * @example
 * ```ts
 * hopAddress('"[2001:db8::1]:4711"') // '2001:db8::1'
 * hopAddress('unknown') // undefined
 * ```
 */
export function hopAddress(raw: string): string | undefined {
  let value = raw.trim()
  if (value.length > MAX_VALUE) return undefined
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).trim()
  if (value.includes('%')) return undefined
  if (value.startsWith('[')) {
    const close = value.indexOf(']')
    if (close === -1) return undefined
    const rest = value.slice(close + 1)
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined
    value = value.slice(1, close)
    return isIP(value) === 6 ? plainAddress(value.toLowerCase()) : undefined
  }
  const family = isIP(value)
  if (family === 6) return plainAddress(value.toLowerCase())
  if (family === 4) return value
  // `203.0.113.7:4711`: IPv4 with a port (Azure's front ends write them).
  const colon = value.indexOf(':')
  if (colon !== -1 && colon === value.lastIndexOf(':') && /^\d{1,5}$/.test(value.slice(colon + 1))) {
    const address = value.slice(0, colon)
    if (isIP(address) === 4) return address
  }
  return undefined
}

/** Hostnames, IPv4 addresses and bracketed IPv6 addresses, with an optional port (srvx's own rule, a little stricter). */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)(?::(\d{1,5}))?$/i

/**
 * A forwarded host (`X-Forwarded-Host`, `Forwarded: host=`), lower-cased,
 * or undefined when it is not one (a path, a user, spaces, a port over 65535).
 *
 * @example
 * ```ts
 * forwardedHost('App.Example:8443') // 'app.example:8443'
 * forwardedHost('evil.example/path') // undefined
 * ```
 */
export function forwardedHost(raw: string): string | undefined {
  let value = raw.trim()
  if (value.length > MAX_VALUE) return undefined
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
  const match = HOST.exec(value)
  if (!match) return undefined
  if (match[1] !== undefined && Number(match[1]) > 65535) return undefined
  if (value.startsWith('[') && isIP(value.slice(1, value.indexOf(']'))) !== 6) return undefined
  return value.toLowerCase()
}

/**
 * A forwarded port (`X-Forwarded-Port`), 1 to 65535, as text, or undefined.
 *
 * @example
 * ```ts
 * forwardedPort('443') // '443'
 * forwardedPort('99999') // undefined
 * ```
 */
export function forwardedPort(raw: string): string | undefined {
  const value = raw.trim()
  if (!/^\d{1,5}$/.test(value)) return undefined
  const port = Number(value)
  return port >= 1 && port <= 65535 ? String(port) : undefined
}

/**
 * A forwarded scheme (`X-Forwarded-Proto`, `Forwarded: proto=`): `http` or
 * `https` in any case, else undefined (the request keeps its own).
 *
 * @example
 * ```ts
 * forwardedScheme('HTTPS') // 'https'
 * forwardedScheme('ftp') // undefined
 * ```
 */
export function forwardedScheme(raw: string): 'http' | 'https' | undefined {
  let value = raw.trim().toLowerCase()
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
  return value === 'https' ? 'https' : value === 'http' ? 'http' : undefined
}

/**
 * The entry `fromRight` places from the right of a comma-separated list
 * (0: the right-most, the one the nearest proxy wrote), or the left-most
 * when the list is shorter; empty entries are skipped. Read backwards
 * without splitting the whole header.
 *
 * @example
 * ```ts
 * listEntryFromRight('https, http', 0) // 'http'
 * listEntryFromRight('https, http', 5) // 'https'
 * ```
 */
export function listEntryFromRight(list: string, fromRight: number): string | undefined {
  let end = list.length
  let found: string | undefined
  let seen = 0
  while (end > 0) {
    const comma = list.lastIndexOf(',', end - 1)
    const entry = list.slice(comma + 1, end).trim()
    end = comma === -1 ? 0 : comma
    if (entry === '') continue
    found = entry
    if (seen++ === fromRight) break
  }
  return found
}

/** One element of a `Forwarded` header (its `for`, `proto` and `host`), or undefined for an element that is not well formed. */
export type ForwardedElement = { for?: string; proto?: string; host?: string } | undefined

/** Most elements of one `Forwarded` header kept (the right-most): a chain of proxies is never this long. @example `parseForwarded(header).length <= MAX_FORWARDED_ELEMENTS` */
export const MAX_FORWARDED_ELEMENTS = 64

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i
/** An unquoted value: a token, leniently with the brackets and colons of an IPv6 address some proxies leave unquoted. */
const BARE_VALUE = /^[!#$%&'*+.^_`|~0-9a-z:[\]-]+$/i

/**
 * The elements of an RFC 7239 `Forwarded` header, left to right (at most
 * the right-most {@link MAX_FORWARDED_ELEMENTS}; empty ones skipped, as the
 * list syntax asks). Quoted values may hold commas and semicolons
 * (`for="[2001:db8::1]:4711"`). An element with a malformed pair, a
 * repeated parameter or an unterminated quote is `undefined` as a whole,
 * so a client cannot splice a pair of its own into the element its proxy
 * appends.
 *
 * @example
 * ```ts
 * parseForwarded('for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8::1]"')
 * // [{ for: '192.0.2.60', proto: 'http' }, { for: '[2001:db8::1]' }]
 * ```
 */
export function parseForwarded(header: string): ForwardedElement[] {
  const elements: ForwardedElement[] = []
  const n = header.length
  let pairs = new Map<string, string>()
  let malformed = false
  const finish = () => {
    if (!malformed && pairs.size === 0) return
    elements.push(malformed ? undefined : { for: pairs.get('for'), proto: pairs.get('proto'), host: pairs.get('host') })
    if (elements.length > MAX_FORWARDED_ELEMENTS) elements.shift()
    pairs = new Map()
    malformed = false
  }
  let i = 0
  while (i < n) {
    const c = header[i]
    if (c === ' ' || c === '\t' || c === ';') {
      i++
      continue
    }
    if (c === ',') {
      finish()
      i++
      continue
    }
    // One pair: name "=" (token | quoted-string), up to the next ";" or "," (or the end).
    const stop = nextDelimiter(header, i)
    const eq = header.indexOf('=', i)
    if (eq === -1 || eq > stop) {
      malformed = true
      i = stop
      continue
    }
    const name = header.slice(i, eq).trim().toLowerCase()
    let j = eq + 1
    while (j < n && (header[j] === ' ' || header[j] === '\t')) j++
    let value: string
    if (header[j] === '"') {
      const quoted = readQuoted(header, j)
      if (!quoted) {
        // Nothing after an unterminated quote can be told apart from it: the element ends the header.
        malformed = true
        finish()
        return elements
      }
      value = quoted.text
      const after = nextDelimiter(header, quoted.end)
      if (header.slice(quoted.end, after).trim() !== '') malformed = true
      i = after
    } else {
      const end = nextDelimiter(header, j)
      value = header.slice(j, end).trim()
      if (!BARE_VALUE.test(value)) malformed = true
      i = end
    }
    if (!TOKEN.test(name) || value.length > MAX_VALUE || pairs.has(name)) malformed = true
    else pairs.set(name, value)
  }
  finish()
  return elements
}

/** The quoted-string that opens at `start` (its text, backslash escapes undone, and where it ends), or undefined when it never closes. */
function readQuoted(text: string, start: number): { text: string; end: number } | undefined {
  let out = ''
  for (let k = start + 1; k < text.length; k++) {
    const c = text[k]!
    if (c === '"') return { text: out, end: k + 1 }
    if (c === '\\' && k + 1 < text.length) out += text[++k]
    else out += c
  }
  return undefined
}

function nextDelimiter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text[i] === ';' || text[i] === ',') return i
  return text.length
}

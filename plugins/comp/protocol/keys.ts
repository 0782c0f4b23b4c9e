import { createHmac, randomUUID } from 'node:crypto'

/**
 * A key for one purpose, derived from `APP_KEY`, so checksums and upload
 * references never share key material with cookie encryption.
 *
 * @example
 * ```ts
 * hmacKey(appKey, 'comp:checksum')
 * ```
 */
export function hmacKey(appKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', appKey).update(`kiln:${purpose}`).digest()
}

/**
 * A freshly signed update address for one session: `s` is the session's
 * tag (see `SessionBinding`), so the address works in that session only;
 * its expiry starts now, and a random `n` makes each one different even
 * within the same second (48 bits from the pooled UUID generator: it has to
 * differ, not stay secret).
 *
 * @example
 * ```ts
 * signedEndpoint(signer, '/comp/update', 720, binding.tag(ctx)) // '/comp/update?expires=...&n=...&s=...&signature=...'
 * ```
 */
export function signedEndpoint(
  signer: { sign(path: string, options: { ttlMinutes: number; params: Record<string, string> }): string },
  endpoint: string,
  ttlMinutes: number,
  session: string,
): string {
  return signer.sign(endpoint, { ttlMinutes, params: { n: randomUUID().slice(0, 13).replace('-', ''), s: session } })
}

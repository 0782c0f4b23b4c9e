import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto'

/**
 * JSON with object keys sorted at every depth: the same data always gives
 * the same text, whatever order its keys were built in (or the browser sent
 * them back in), so a checksum over it is stable.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: { d: 2, c: 3 } }) // '{"a":{"c":3,"d":2},"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`
}

/**
 * Signs and verifies component snapshots: HMAC-SHA256 over the canonical
 * JSON of the fingerprint and every memo field but the checksum itself,
 * compared in constant time.
 *
 * @example
 * ```ts
 * const checksums = new Checksums(key)
 * const checksum = checksums.sign(fingerprint, memo)
 * checksums.verify(fingerprint, { ...memo, checksum }) // true
 * ```
 */
export class Checksums {
  private readonly key: KeyObject

  constructor(key: Buffer | string) {
    // Made once: a KeyObject is not copied into a new key on every sign and verify.
    this.key = createSecretKey(typeof key === 'string' ? Buffer.from(key) : key)
  }

  /** The checksum of a snapshot. @example `checksums.sign({ id, name }, { data, errors })` */
  sign(fingerprint: unknown, memo: Record<string, unknown>): string {
    const { checksum: _ignored, ...rest } = memo
    return createHmac('sha256', this.key)
      .update(canonicalJson({ fingerprint, memo: rest }))
      .digest('hex')
  }

  /** True when the memo's `checksum` matches its contents. @example `checksums.verify(fingerprint, memo)` */
  verify(fingerprint: unknown, memo: Record<string, unknown>): boolean {
    const given = memo.checksum
    if (typeof given !== 'string' || !/^[a-f0-9]{64}$/.test(given)) return false
    return timingSafeEqual(Buffer.from(this.sign(fingerprint, memo), 'hex'), Buffer.from(given, 'hex'))
  }
}

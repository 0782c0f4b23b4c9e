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
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      out += (i === 0 ? '' : ',') + (item === undefined ? 'null' : canonicalJson(item))
    }
    return `${out}]`
  }
  return canonicalRecord(value as Record<string, unknown>)
}

/** An object's canonical JSON, leaving out `skip`: built in one pass, without copying the object first. */
function canonicalRecord(record: Record<string, unknown>, skip?: string): string {
  let out = '{'
  for (const key of Object.keys(record).sort()) {
    const item = record[key]
    if (item === undefined || key === skip) continue
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`
  }
  return `${out}}`
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
    // canonicalJson({ fingerprint, memo }) without the checksum, written straight out ("fingerprint" sorts before "memo").
    return createHmac('sha256', this.key)
      .update(`{"fingerprint":${canonicalJson(fingerprint)},"memo":${canonicalRecord(memo, 'checksum')}}`)
      .digest('hex')
  }

  /** True when the memo's `checksum` matches its contents. @example `checksums.verify(fingerprint, memo)` */
  verify(fingerprint: unknown, memo: Record<string, unknown>): boolean {
    const given = memo.checksum
    if (typeof given !== 'string' || !/^[a-f0-9]{64}$/.test(given)) return false
    return timingSafeEqual(Buffer.from(this.sign(fingerprint, memo), 'hex'), Buffer.from(given, 'hex'))
  }
}

import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))))

/** scrypt cost parameters; stored in every hash so they can be raised later. */
export interface ScryptParams {
  N: number
  r: number
  p: number
}

const DEFAULTS: ScryptParams = { N: 16384, r: 8, p: 1 }
/** `Hash.fake()`'s cost: the same format and checks, about a thousand times cheaper. Never for real passwords. */
const FAKE: ScryptParams = { N: 16, r: 1, p: 1 }
let current: ScryptParams = DEFAULTS
const KEY_LENGTH = 64

/**
 * Hashes a password with scrypt and a random salt. The result carries its
 * parameters: `scrypt$N$r$p$<salt b64>$<hash b64>`.
 *
 * @example
 * ```ts
 * const stored = await hashPassword('correct horse battery staple')
 * ```
 */
export async function hashPassword(plain: string, params: ScryptParams = current): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(plain.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem: 256 * params.N * params.r })
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`
}

/**
 * Checks a password against a stored hash in constant time. A malformed hash
 * is simply a mismatch.
 *
 * @example
 * ```ts
 * if (await verifyPassword(input, user.password)) login(user)
 * ```
 */
export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed) return false
  const key = await scrypt(plain.normalize('NFKC'), parsed.salt, parsed.hash.length, {
    N: parsed.N,
    r: parsed.r,
    p: parsed.p,
    maxmem: 256 * parsed.N * parsed.r,
  })
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash)
}

/**
 * True when a hash was made with weaker parameters than the current ones.
 *
 * @example
 * ```ts
 * if (needsRehash(user.password)) user.password = await hashPassword(input)
 * ```
 */
export function needsRehash(stored: string, params: ScryptParams = current): boolean {
  const parsed = parseHash(stored)
  return !parsed || parsed.N < params.N || parsed.r < params.r || parsed.p < params.p
}

function parseHash(stored: string | null | undefined): (ScryptParams & { salt: Buffer; hash: Buffer }) | undefined {
  if (typeof stored !== 'string') return undefined
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20 || (N & (N - 1)) !== 0 || r > 32 || p > 16) return undefined
  const salt = Buffer.from(parts[4]!, 'base64')
  const hash = Buffer.from(parts[5]!, 'base64')
  if (salt.length < 8 || hash.length < 16) return undefined
  return { N, r, p, salt, hash }
}

let dummy: Promise<string> | undefined
let dummyParams: ScryptParams | undefined

/**
 * Spends the same time as checking a real password, for a login whose user
 * does not exist: without it, an unknown email answers faster than a wrong
 * password, and the difference tells an attacker which emails have accounts.
 *
 * @example
 * ```ts
 * if (!user) { await verifyNothing(password); return undefined }
 * ```
 */
export async function verifyNothing(plain: string): Promise<false> {
  // The dummy is made at the cost in use, so that it takes as long as a real check (and a fake one stays fast).
  if (dummyParams !== current) {
    dummyParams = current
    dummy = hashPassword('kiln-dummy-password')
  }
  dummy ??= hashPassword('kiln-dummy-password')
  await verifyPassword(plain, await dummy)
  return false
}

/**
 * Password hashing: `make` and `check` at the current cost. `Hash.fake()`
 * makes hashing cheap for tests (seeding a hundred users, logging in on
 * every test), keeping the format and the constant-time check; `restore()`
 * goes back to the real cost. It applies to the whole process: call it in
 * a test file's setup, never in the app.
 *
 * @example
 * ```ts
 * import { Hash } from 'kiln-framework'
 * test.before(() => Hash.fake())
 * const stored = await Hash.make('secret')
 * await Hash.check('secret', stored) // true
 * ```
 */
export const Hash = {
  make: (plain: string): Promise<string> => hashPassword(plain),
  check: (plain: string, stored: string | null | undefined): Promise<boolean> => verifyPassword(plain, stored),
  needsRehash: (stored: string): boolean => needsRehash(stored),
  fake(): void {
    current = FAKE
  },
  restore(): void {
    current = DEFAULTS
  },
  /** True while `fake()` is in effect. */
  isFake: (): boolean => current === FAKE,
}

const COOKIE_PATTERN = /^([A-Za-z0-9]{40})(?:\.([0-9]{1,15}))?$/

/**
 * What the session cookie carries, inside its encryption: the session id
 * and, after a dot, when the session expires unless a request uses it again
 * (Unix milliseconds). The expiry lets a session with nothing stored (see
 * `Session.save`) expire like a stored one, and keeps an id whose tombstone
 * was swept from coming back: the tombstone outlives every cookie issued
 * before it. A bare id is the format of earlier releases; it loads only a
 * stored session.
 *
 * @example
 * ```ts
 * parseSessionCookie('q3Zk...40 characters....1767225600000') // { id: 'q3Zk...', expiresAt: 1767225600000 }
 * ```
 */
export function parseSessionCookie(value: string | undefined): { id: string; expiresAt?: number } | undefined {
  const match = value === undefined ? null : COOKIE_PATTERN.exec(value)
  if (!match) return undefined
  return match[2] === undefined ? { id: match[1]! } : { id: match[1]!, expiresAt: Number(match[2]) }
}

/**
 * The session cookie's value for an id that expires at `expiresAt` (Unix
 * milliseconds).
 *
 * @example
 * ```ts
 * sessionCookieValue(session.id, Date.now() + 7_200_000)
 * ```
 */
export function sessionCookieValue(id: string, expiresAt: number): string {
  return `${id}.${Math.floor(expiresAt)}`
}

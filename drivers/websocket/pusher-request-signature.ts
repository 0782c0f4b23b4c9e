import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Checks a Pusher HTTP API signature: `auth_key`, `auth_timestamp` within
 * `maxSkewSeconds`, `auth_version` 1.0, `body_md5` for a body, and
 * `auth_signature` = HMAC-SHA256(secret, "METHOD\nPATH\nsorted query").
 * Returns the reason it fails, or undefined when it is valid.
 *
 * @example
 * ```ts
 * const problem = verifyPusherRequest('POST', '/apps/1/events', url.searchParams, body, { key, secret })
 * if (problem) return unauthorized(problem)
 * ```
 */
export function verifyPusherRequest(
  method: string,
  path: string,
  query: URLSearchParams,
  body: string | undefined,
  credentials: { key: string; secret: string },
  now = Date.now(),
  maxSkewSeconds = 600,
): string | undefined {
  const params = new Map<string, string>()
  for (const [name, value] of query) {
    const key = name.toLowerCase()
    if (params.has(key)) return `The query parameter ${key} appears twice.`
    params.set(key, value)
  }
  if (params.get('auth_key') !== credentials.key) return 'Unknown auth_key.'
  if (params.get('auth_version') !== '1.0') return 'auth_version must be 1.0.'
  const timestamp = Number(params.get('auth_timestamp'))
  if (!Number.isFinite(timestamp) || Math.abs(now / 1000 - timestamp) > maxSkewSeconds) return `auth_timestamp must be within ${maxSkewSeconds} seconds of the server time.`
  if (body !== undefined && body !== '') {
    const md5 = createHash('md5').update(body).digest('hex')
    if (!same(params.get('body_md5') ?? '', md5)) return 'body_md5 does not match the body.'
  }
  const signature = params.get('auth_signature') ?? ''
  params.delete('auth_signature')
  const sorted = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`)
  const expected = createHmac('sha256', credentials.secret).update(`${method.toUpperCase()}\n${path}\n${sorted.join('&')}`).digest('hex')
  return same(signature, expected) ? undefined : 'Invalid auth_signature.'
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

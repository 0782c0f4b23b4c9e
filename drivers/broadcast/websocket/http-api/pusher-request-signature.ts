import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/**
 * The key and secret a Pusher HTTP API request is signed with.
 *
 * @example
 * ```ts
 * const credentials: PusherApiCredentials = { key: 'app-key', secret: process.env.RT_APP_SECRET! }
 * ```
 */
export interface PusherApiCredentials {
  key: string
  secret: string
}

/**
 * Checks a Pusher HTTP API signature: `auth_key`, `auth_timestamp` within
 * `maxSkewSeconds`, `auth_version` 1.0, `body_md5` for a body, and
 * `auth_signature` = hex HMAC-SHA256(secret, "METHOD\nPATH\nsorted query").
 * Query values are compared decoded, as the `pusher` SDKs sign them.
 * Returns why it fails (safe to send back: never the secret or the expected
 * signature), or undefined when the request is authentic.
 *
 * @example
 * ```ts
 * const url = new URL(request.url)
 * const problem = verifyPusherRequest('POST', url.pathname, url.searchParams, rawBody, { key, secret })
 * if (problem) return Response.json({ message: problem }, { status: 401 })
 * ```
 */
export function verifyPusherRequest(
  method: string,
  path: string,
  query: URLSearchParams,
  body: string | undefined,
  credentials: PusherApiCredentials,
  now = Date.now(),
  maxSkewSeconds = 600,
): string | undefined {
  const params = new Map<string, string>()
  for (const [name, value] of query) {
    const key = name.toLowerCase()
    // A repeated parameter would let the signed value and the used value differ.
    if (params.has(key)) return `The query parameter ${key} appears twice.`
    params.set(key, value)
  }
  if (!same(params.get('auth_key') ?? '', credentials.key)) return 'Unknown auth_key.'
  if (params.get('auth_version') !== '1.0') return 'auth_version must be 1.0.'
  const timestamp = params.get('auth_timestamp') ?? ''
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > maxSkewSeconds) {
    return `auth_timestamp must be within ${maxSkewSeconds} seconds of the server time.`
  }
  if (body !== undefined && body !== '') {
    const given = params.get('body_md5')
    if (given === undefined) return 'body_md5 is required when the request has a body.'
    if (!same(given, createHash('md5').update(body).digest('hex'))) return 'body_md5 does not match the body.'
  }
  const signature = params.get('auth_signature') ?? ''
  params.delete('auth_signature')
  const sorted = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`)
  const expected = createHmac('sha256', credentials.secret)
    .update(`${method.toUpperCase()}\n${path}\n${sorted.join('&')}`)
    .digest('hex')
  return same(signature, expected) ? undefined : 'Invalid auth_signature.'
}

/** Constant-time string equality (the length is not secret). */
function same(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Hosts that name this machine: an APP_URL on one of them means "wherever kiln dev serves". */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'])

/**
 * The APP_URL an app should use under `kiln dev`: when APP_URL names this
 * machine on another port than the one `kiln dev` listens on (`--port=3001`,
 * `--port=0`), the same URL on the port it serves, so links made outside a
 * request (the verification and reset links in mails) open the running app.
 * Any other APP_URL (a tunnel, a domain) is left alone: `undefined`.
 *
 * @example
 * ```ts
 * devAppUrl('http://127.0.0.1:3000', 'http://127.0.0.1:3001') // 'http://127.0.0.1:3001'
 * devAppUrl('https://shop.test', 'http://127.0.0.1:3001') // undefined
 * ```
 */
export function devAppUrl(appUrl: string | undefined, listening: string): string | undefined {
  if (!appUrl || !URL.canParse(appUrl) || !URL.canParse(listening)) return undefined
  const configured = new URL(appUrl)
  const served = new URL(listening)
  if (configured.protocol !== 'http:' || !LOOPBACK.has(configured.hostname) || configured.port === served.port) return undefined
  configured.port = served.port
  return configured.toString().replace(/\/$/, '')
}

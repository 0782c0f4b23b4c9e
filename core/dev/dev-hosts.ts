import { isIP } from 'node:net'

// Names of this machine, whatever port: what a browser on it sends.
const OWN = ['localhost', '127.0.0.1', '[::1]']

/**
 * The `Host` header check of `kiln dev`'s own answers (its event stream,
 * the page shown while the app cannot load). A page on another site can
 * point a name of its own at 127.0.0.1 (DNS rebinding) and then read what
 * the dev server answers under that name as same-origin; refusing every
 * name but the dev server's own makes that useless. Accepted: `localhost`,
 * `127.0.0.1`, `[::1]`, the host `kiln dev` listens on, `APP_URL`'s host,
 * and any IP address (a rebinding needs a name, and a phone on the local
 * network opens the machine by its address). The port is not compared.
 *
 * @example
 * ```ts
 * const allowed = devHostCheck('http://127.0.0.1:3000', 'https://shop.test')
 * allowed('shop.test:3000') // true
 * allowed('attacker.example:3000') // false
 * ```
 */
export function devHostCheck(listening: string, appUrl: string | undefined): (host: string | null) => boolean {
  const names = new Set(OWN)
  for (const url of [listening, appUrl]) if (url && URL.canParse(url)) names.add(new URL(url).hostname.toLowerCase())
  return (host) => {
    const name = hostname(host)
    if (name === undefined) return false
    return names.has(name) || isIP(name.replace(/^\[|\]$/g, '')) !== 0
  }
}

/** The name in a `Host` header (`shop.test:3000`, `[::1]:3000`), lowercased; undefined when it is not one. */
function hostname(host: string | null): string | undefined {
  if (!host || !URL.canParse(`http://${host}`)) return undefined
  const url = new URL(`http://${host}`)
  // Anything beyond a host and a port (`a@b`, `a/b`) is not a Host header a browser sends.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || !/^[^/?#@]+$/.test(host)) return undefined
  return url.hostname.replace(/\.$/, '').toLowerCase()
}

/**
 * The answer to a request under a name `kiln dev` does not serve as its
 * own: 403 with JSON `{ "message": ... }` saying how to allow the name.
 *
 * @example
 * ```ts
 * if (!allowed(request.headers.get('host'))) return foreignHost(request.headers.get('host'))
 * ```
 */
export function foreignHost(host: string | null): Response {
  const shown = (host ?? '').slice(0, 100)
  return Response.json(
    {
      message: `kiln dev does not answer this under the host "${shown}": only localhost, this machine's addresses and APP_URL's host. Set APP_URL to the address you open the app at.`,
    },
    { status: 403, headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } },
  )
}

import { HttpException } from '../../../../core/index.ts'

/**
 * Checks the address of `this.redirect(url)` before it reaches the
 * browser: only `http:` and `https:` addresses (a path like `/todos` is on
 * this site), and another site only when the call says so with
 * `{ away: true }`, as Laravel's `redirect()->away()`. A refusal is a 400:
 * the address often comes from input (`?return=...`), and the browser must
 * never run a `javascript:` address.
 *
 * @example
 * ```ts
 * checkedRedirect('/todos', new URL('https://app.test/x'))                      // '/todos'
 * checkedRedirect('https://docs.example', new URL('https://app.test/x'), true)  // 'https://docs.example/'
 * checkedRedirect('javascript:alert(1)', new URL('https://app.test/x'))         // throws 400
 * ```
 */
export function checkedRedirect(url: string, here: URL, away = false): string {
  let target: URL
  try {
    target = new URL(url, here)
  } catch {
    throw new HttpException(400, `Refused to redirect to "${url.slice(0, 100)}": it is not an address.`)
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new HttpException(400, `Refused to redirect to a ${target.protocol} address: only http and https addresses are followed.`)
  if (target.origin !== here.origin && !away) {
    throw new HttpException(400, `Refused to redirect to another site (${target.origin}): call this.redirect(url, { away: true }) when that is meant.`)
  }
  // A path stays a path (an app under APP_BASE_PATH, a proxy): only other sites need the full address.
  return target.origin === here.origin && /^\/(?![/\\])/.test(url) ? url : target.href
}

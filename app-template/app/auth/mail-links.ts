import type { Application } from 'kiln-framework'

/**
 * A link for a mail: the browser path (with APP_BASE_PATH, and its
 * signature when signed) on APP_URL's origin, since a mail is read far from
 * the request that sent it.
 *
 * @example
 * ```ts
 * mailLink(app, app.service('signer').signRoute('verification.verify', { id: 1, hash }, { ttlMinutes: 60 }))
 * ```
 */
export function mailLink(app: Application, browserPath: string): string {
  return new URL(app.config.get<string>('app.url', 'http://127.0.0.1:3000')).origin + browserPath
}

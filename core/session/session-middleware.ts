import type { Storage } from 'unstorage'
import type { Application } from '../application/application.ts'
import type { Encrypter } from '../security/encrypter.ts'
import type { Middleware } from '../http/middleware.ts'
import type { DriverManager } from '../manager/driver-manager.ts'
import { Session } from './session.ts'
import type { SessionConfig } from './session-config.ts'

declare module '../http/http-context.ts' {
  interface HttpContextExtensions {
    /** The visitor's session, on routes in the `web` group (and stateful API requests). */
    session?: Session
  }
}

/**
 * `encryptCookies` (first in the `web` group): every cookie this request
 * reads or sets is sealed with AES-256-GCM under `APP_KEY`, bound to its name
 * so a value cannot be moved to another cookie. `XSRF-TOKEN` (and the
 * `unencrypted_cookies` list) stay readable by JavaScript.
 *
 * @example
 * ```ts
 * app.middleware.prependToGroup('web', encryptCookies)
 * ```
 */
export const encryptCookies: Middleware = (ctx, next) => {
  const encrypter = ctx.app.service<Encrypter>('encrypter')
  const exempt = new Set(ctx.app.config.get<string[]>('session.unencrypted_cookies', []))
  ctx.cookies.codec = {
    encode: (name, value) => encrypter.encrypt(value, `cookie:${name}`),
    decode: (name, value) => encrypter.decrypt(value, `cookie:${name}`),
    isExempt: (name) => exempt.has(name),
  }
  return next()
}

/**
 * `startSession`: loads the session named by the (encrypted) session cookie,
 * or starts a new one; after the response it saves the session and sets the
 * cookie. Errors rendered further in still get the cookie.
 *
 * @example
 * ```ts
 * app.middleware.appendToGroup('web', startSession)
 * ```
 */
export const startSession: Middleware = async (ctx, next) => {
  if (ctx.session) return next()
  const config = ctx.app.config.get<SessionConfig>('session')
  const store = sessionStore(ctx.app)
  const session = await Session.load(store, ctx.cookies.get(config.cookie), config.lifetime * 60)
  ctx.session = session
  const response = await next()
  await session.save()
  ctx.cookies.set(config.cookie, session.id, {
    path: config.path,
    domain: config.domain,
    httpOnly: config.http_only,
    sameSite: config.same_site,
    secure: config.secure ?? ctx.app.config.get<string>('app.url', '').startsWith('https:'),
    maxAge: config.expire_on_close ? undefined : config.lifetime * 60,
  })
  return response
}

/**
 * The store the app's sessions live in (`config/session.ts` `driver`).
 *
 * @example
 * ```ts
 * await sessionStore(app).getKeys()
 * ```
 */
export function sessionStore(app: Application): Storage {
  return app.service<DriverManager<Storage, Application>>('session.stores').connection()
}

import type { KeyObject } from 'node:crypto'
import type { Application } from '../application/application.ts'
import { parseAppKey } from '../security/app-key.ts'
import type { CookieCodec } from '../http/body/cookie-jar.ts'
import { middlewareNow, type Middleware, type NextNow } from '../http/pipeline/middleware.ts'
import type { HttpContext } from '../http/pipeline/http-context.ts'
import { ServiceUnavailableError } from '../support/redis-health.ts'
import { maybeCollectSessionGarbage } from './session-gc.ts'
import { secureCookie } from './secure-cookie.ts'
import { Session, type SaveResult } from './session.ts'
import { csrfTokenKeys } from './session-token.ts'
import { sessionStore } from './session-stores.ts'
import { addXsrfCookie, wantsXsrfCookie } from './verify-csrf-token.ts'
import type { SessionConfig } from './session-config.ts'

declare module '../http/pipeline/http-context.ts' {
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
export const encryptCookies: Middleware = middlewareNow((ctx, next) => {
  ctx.cookies.codec = cookieCodec(ctx.app)
  return next()
})

const CODECS = new WeakMap<Application, CookieCodec>()

/** The app's cookie codec, made once: the encrypter and the exempt list do not change while it runs. */
function cookieCodec(app: Application): CookieCodec {
  let codec = CODECS.get(app)
  if (!codec) {
    const encrypter = app.service('encrypter')
    const exempt = new Set(app.config.get<string[]>('session.unencrypted_cookies', []))
    codec = {
      encode: (name, value) => encrypter.encrypt(value, `cookie:${name}`),
      decode: (name, value) => encrypter.decrypt(value, `cookie:${name}`),
      isExempt: (name) => exempt.has(name),
    }
    CODECS.set(app, codec)
  }
  return codec
}

/**
 * `startSession`: loads the session named by the (encrypted) session cookie,
 * or starts a new one; after the response it saves the session and sets the
 * cookie (and `XSRF-TOKEN`, for `verifyCsrfToken`) when the session was
 * saved or is new to the browser. A session with no data is kept in its
 * cookie only (see `Session.save`). Errors rendered further in still get the
 * cookie. A request whose session was ended meanwhile (a login or logout in
 * another tab finished first) sends no session cookies, so its late answer
 * cannot put the old id and token back into the browser.
 *
 * @example
 * ```ts
 * app.middleware.appendToGroup('web', startSession)
 * ```
 */
export const startSession: Middleware = middlewareNow((ctx, next) => {
  if (ctx.session) return next()
  const config = ctx.app.config.get<SessionConfig>('session')
  const store = sessionStore(ctx.app)
  let opened: Session | Promise<Session>
  try {
    opened = Session.open(store, ctx.cookies.get(config.cookie), config.lifetime * 60, { tokenKeys: tokenKeys(ctx.app) })
  } catch (error) {
    throw storeFailure(ctx.app, error)
  }
  // Not an async function: a step waits only when the store is really read or written, and an answer known at once
  // goes back at once. Each promise of a request costs an AsyncLocalStorage hook on Node 20.
  if (opened instanceof Session) return withSession(ctx, next, opened, config)
  return opened.then(
    (session) => withSession(ctx, next, session, config),
    (error: unknown) => {
      throw storeFailure(ctx.app, error)
    },
  )
})

/** Runs the rest of the pipeline with the session open, then saves it. */
function withSession(ctx: HttpContext, next: NextNow, session: Session, config: SessionConfig): Response | Promise<Response> {
  ctx.session = session
  const downstream = next()
  return downstream instanceof Response
    ? saveSession(ctx, session, config, downstream)
    : downstream.then((response) => saveSession(ctx, session, config, response))
}

function saveSession(ctx: HttpContext, session: Session, config: SessionConfig, response: Response): Response | Promise<Response> {
  const xsrf = wantsXsrfCookie(ctx)
  // Creates the CSRF token before the session is saved, if the handler has not (`verifyCsrfToken` asked for it).
  if (xsrf) session.token()
  let result: SaveResult | Promise<SaveResult>
  try {
    result = session.saveNow()
  } catch (error) {
    throw storeFailure(ctx.app, error)
  }
  if (typeof result === 'string') return sendSessionCookies(ctx, session, config, response, xsrf, result)
  return result.then(
    (saved) => sendSessionCookies(ctx, session, config, response, xsrf, saved),
    (error: unknown) => {
      throw storeFailure(ctx.app, error)
    },
  )
}

function sendSessionCookies(ctx: HttpContext, session: Session, config: SessionConfig, response: Response, xsrf: boolean, saved: SaveResult): Response {
  maybeCollectSessionGarbage(ctx.app)
  if (saved === 'ended') return response
  // Unchanged: the browser's cookie already names this id, and re-sending it would race a login elsewhere.
  if (saved === 'written' || session.cookieId !== session.id) {
    ctx.cookies.set(config.cookie, session.cookieValue(), {
      path: config.path,
      domain: config.domain,
      httpOnly: config.http_only,
      sameSite: config.same_site,
      secure: secureCookie(ctx, config.secure),
      maxAge: config.expire_on_close ? undefined : config.lifetime * 60,
    })
  }
  if (xsrf && (saved === 'written' || ctx.cookies.raw('XSRF-TOKEN') !== session.token())) addXsrfCookie(ctx, session.token())
  return response
}

const TOKEN_KEYS = new WeakMap<Application, KeyObject[]>()

/** The app's CSRF token keys, from `APP_KEY` and the previous keys, worked out once. */
function tokenKeys(app: Application): KeyObject[] {
  let keys = TOKEN_KEYS.get(app)
  if (!keys) {
    const appKeys = [app.config.get<string>('app.key'), ...app.config.get<string[]>('app.previous_keys', [])].map(parseAppKey)
    TOKEN_KEYS.set(app, (keys = csrfTokenKeys(appKeys)))
  }
  return keys
}

/** A store that cannot be read or written (Redis down, a full disk) is 503, never a hang or a 500. */
function storeFailure(app: Application, error: unknown): ServiceUnavailableError {
  // The store already logged an outage once; a plain I/O failure gets its own line.
  if (!(error instanceof ServiceUnavailableError)) app.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'The session store failed')
  return new ServiceUnavailableError('The session store is unavailable; try again shortly.', { cause: error })
}

export { sessionStore } from './session-stores.ts'

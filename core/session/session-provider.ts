import type { Storage } from 'unstorage'
import type { Application } from '../application/application.ts'
import { definePlugin } from '../application/define-plugin.ts'
import type { DriverManager } from '../manager/driver-manager.ts'
import { parseAppKey } from '../security/app-key.ts'
import { Encrypter } from '../security/encrypter.ts'
import { UrlSigner, validateSignature } from '../security/url-signer.ts'
import { deepMerge } from '../support/dot-path.ts'
import { sessionConfigSchema } from './session-config.ts'
import { encryptCookies, startSession } from './session-middleware.ts'
import { sessionGcCommand } from './session-gc.ts'
import { createSessionStores, defaultStores, sessionCookieName } from './session-stores.ts'
import { verifyCsrfToken } from './verify-csrf-token.ts'
import { webHeaders } from './web-headers.ts'
import { requireDriverPackages } from '../support/optional-package.ts'
import { storeScope } from '../application/process-state.ts'
import { redisUrl } from '../support/redis-health.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    encrypter: Encrypter
    'session.stores': DriverManager<Storage, Application>
    signer: UrlSigner
  }
}

/**
 * The kernel's session provider: the encrypter (`ENCRYPTER`,
 * `app.service('encrypter')`), session stores (`app.service('session.stores')`),
 * the `web` group (security headers, encrypted cookies, session, CSRF),
 * `kiln session:gc`, and the URL signer with the `signed` /
 * `signed:relative` middleware.
 */
export const sessionProvider = definePlugin({
  name: 'kiln:session',
  config: { file: 'session', schema: sessionConfigSchema },
  services: {
    encrypter: (app) => new Encrypter(parseAppKey(app.config.get<string>('app.key')), app.config.get<string[]>('app.previous_keys', []).map(parseAppKey)),
    'session.stores': { make: sessionStores, close: (stores) => stores.purge() },
    signer: { make: (app) => new UrlSigner(app), token: UrlSigner },
  },
  register(app) {
    const store = app.config.get<string>('session.driver')
    const active = app.config.get<{ driver?: string; url?: string; timeout_ms?: number }>(`session.stores.${store}`, {})
    // Readiness names the session store when it is a Redis one: every web request needs it.
    if (active.driver === 'redis') app.service('health').redis('session', redisUrl(app.env, active.url), { timeoutMs: active.timeout_ms })

    // First, so that its headers reach every answer of the group, the errors rendered further in included.
    app.middleware.appendToGroup('web', webHeaders)
    app.middleware.appendToGroup('web', encryptCookies)
    app.middleware.appendToGroup('web', startSession)
    app.middleware.appendToGroup('web', verifyCsrfToken)
    app.middleware.alias('csrf', verifyCsrfToken)

    app.commands.register(sessionGcCommand)

    app.middleware.alias('signed', validateSignature)
  },
})

/** The session stores, once config/session.ts has its defaults and the active store's driver package is installed. */
function sessionStores(app: Application): DriverManager<Storage, Application> {
  app.config.set('session.stores', deepMerge(defaultStores(app), app.config.get('session.stores', {})))
  if (!app.config.get('session.driver')) app.config.set('session.driver', app.env.unchecked.get('SESSION_DRIVER', 'fs'))
  if (!app.config.get('session.cookie')) app.config.set('session.cookie', sessionCookieName(app))
  const store = app.config.get<string>('session.driver')
  const storeDriver = app.config.get<string>(`session.stores.${store}.driver`, '')
  requireDriverPackages(`storage.${storeDriver}`, `The "${store}" session store`, app.root)
  // A login kept in one process's memory is unknown to the next request's process.
  app.service('processState').declare({
    what: `sessions, on the "${store}" store${storeDriver === store ? '' : ` (${storeDriver || 'no driver'})`}`,
    scope: storeScope(storeDriver),
    setting: 'set SESSION_DRIVER=redis or fs (config/session.ts `driver`)',
  })
  return createSessionStores(app)
}

import type { Application } from '../application/application.ts'
import { definePlugin } from '../application/define-plugin.ts'
import { HttpContext } from '../http/pipeline/http-context.ts'
import { KilnError } from '../support/errors.ts'
import { authConfigSchema } from './auth-config.ts'
import { authenticate, guest, initializeAuth } from './auth-middleware.ts'
import { AuthManager } from './auth-manager.ts'
import { ModelUserProvider, type UserModelClass } from './model-user-provider.ts'
import { RememberTokens } from './remember-tokens.ts'
import { RequestAuth } from './request-auth.ts'
import { SessionGuard } from './session-guard.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    auth: AuthManager
  }
}

declare module '../http/pipeline/http-context.ts' {
  interface HttpContextExtensions {
    /** Auth for this request: `await ctx.auth.user()`, `login`, `logout`, `attempt`. */
    readonly auth: RequestAuth
  }
}

const AUTH = Symbol('kiln.request-auth')
if (!Object.getOwnPropertyDescriptor(HttpContext.prototype, 'auth')) {
  Object.defineProperty(HttpContext.prototype, 'auth', {
    get(this: HttpContext) {
      const holder = this as unknown as Record<symbol, RequestAuth | undefined>
      return (holder[AUTH] ??= new RequestAuth(this, this.app.service('auth')))
    },
  })
}

/**
 * The kernel's auth provider: the AuthManager (`app.service('auth')`), the
 * `session` guard and `model` user provider, and the `auth` and `guest`
 * middleware aliases. The `web` group fills `request.user()` when a session
 * user exists.
 */
export const authProvider = definePlugin({
  name: 'kiln:auth',
  config: { file: 'auth', schema: authConfigSchema },
  services: {
    auth: { make: (app) => new AuthManager(app), token: AuthManager },
  },
  register(app) {
    const manager = app.service('auth')
    manager.providers.extend<{ model?: unknown }>('model', (_app, { name, config }) => {
      const model = config.model
      if (!model) throw new KilnError(`The "${name}" user provider in config/auth.ts needs a \`model\`.`)
      const resolve = () => (typeof model === 'function' && !('find' in model) ? (model as () => UserModelClass)() : (model as UserModelClass))
      return new ModelUserProvider(resolve)
    })
    manager.guards.extend<{ provider?: string; remember?: RememberConfig }>('session', (app: Application, { name, config }) => {
      const remember = config.remember
        ? new RememberTokens(() => app.service('db').kysely(config.remember!.connection), {
            table: config.remember.table ?? 'remember_tokens',
            cookie: config.remember.cookie ?? `remember_${name}`,
            days: config.remember.days ?? 400,
          })
        : undefined
      return new SessionGuard(name, () => providerFor(app, name, config.provider), remember)
    })
  },
  boot(app) {
    app.middleware.alias('auth', authenticate)
    app.middleware.alias('guest', guest)
    app.middleware.appendToGroup('web', initializeAuth)
  },
})

/** `guards.<name>.remember` in config/auth.ts. */
interface RememberConfig {
  table?: string
  cookie?: string
  days?: number
  connection?: string
}

/**
 * The user provider a guard names, with a clear error when it is missing.
 *
 * @example
 * ```ts
 * const provider = providerFor(app, 'tok', config.provider)
 * ```
 */
export function providerFor(app: Application, guard: string, provider: string | undefined) {
  if (!provider) throw new KilnError(`The "${guard}" guard in config/auth.ts needs a \`provider\`.`)
  return app.service('auth').provider(provider)
}

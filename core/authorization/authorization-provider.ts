import type Handlebars from 'handlebars'
import { currentApp } from '../application/current-app.ts'
import { definePlugin } from '../application/define-plugin.ts'
import { currentHttpContext, HttpContext } from '../http/pipeline/http-context.ts'
import { handlebars } from '../views/handlebars-module.ts'
import { AuthorizationGate, type AbilityCallback, type AbilityOptions, type GateUser, type PolicyClass } from './gate.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    gate: AuthorizationGate
  }
}

declare module '../http/pipeline/http-context.ts' {
  interface HttpContextExtensions {
    /** Whether the request's user may do `ability`: `await ctx.can('update', todo)`. */
    can(ability: string, ...args: unknown[]): Promise<boolean>
    /** `await ctx.cannot('update', todo)` */
    cannot(ability: string, ...args: unknown[]): Promise<boolean>
    /** A 403 `{ message }` unless the request's user may: `await ctx.authorize('update', todo)`. */
    authorize(ability: string, ...args: unknown[]): Promise<void>
  }
}

async function userOf(ctx: HttpContext): Promise<GateUser> {
  // Without the auth provider's user (an api route without a guard), the request's user, if any.
  return (await ctx.auth.user().catch(() => undefined)) ?? ctx.request.user()
}

for (const [name, fn] of Object.entries({
  async can(this: HttpContext, ability: string, ...args: unknown[]) {
    return this.app.service('gate').allows(await userOf(this), ability, ...args)
  },
  async cannot(this: HttpContext, ability: string, ...args: unknown[]) {
    return this.app.service('gate').denies(await userOf(this), ability, ...args)
  },
  async authorize(this: HttpContext, ability: string, ...args: unknown[]) {
    return this.app.service('gate').authorize(await userOf(this), ability, ...args)
  },
})) {
  if (!Object.getOwnPropertyDescriptor(HttpContext.prototype, name)) Object.defineProperty(HttpContext.prototype, name, { value: fn, configurable: true })
}

/** `{{#can "update" todo}}...{{else}}...{{/can}}`: both branches render, the request's user picks one. */
function canHelper(expect: boolean) {
  return function (this: unknown, ability: unknown, ...rest: unknown[]) {
    const options = rest.pop() as Handlebars.HelperOptions
    const yes = options.fn(this)
    const no = options.inverse(this)
    const ctx = currentHttpContext()
    if (!ctx) return new (handlebars().SafeString)(expect ? no : yes)
    return ctx.can(String(ability), ...rest).then((allowed) => new (handlebars().SafeString)(allowed === expect ? yes : no))
  }
}

/**
 * The kernel's authorization provider: the gate (`app.service('gate')`),
 * `ctx.can()`, `ctx.cannot()`, `ctx.authorize()`, and the `{{#can}}` and
 * `{{#cannot}}` view helpers.
 */
export const authorizationProvider = definePlugin({
  name: 'kiln:authorization',
  services: {
    gate: { make: (app) => new AuthorizationGate(app.root), token: AuthorizationGate },
  },
  boot(app) {
    app.views.helper('can', canHelper(true))
    app.views.helper('cannot', canHelper(false))
  },
})

/**
 * The gate of the app in scope; `allows`, `denies` and `authorize` ask for
 * the user of the request being served (`forUser(user)` for anyone else).
 *
 * @example
 * ```ts
 * Gate.define('see-reports', (user) => user.is_admin)
 * Gate.policy(Todo, TodoPolicy)
 * await Gate.forUser(user).allows('update', todo)
 * ```
 */
export const Gate = {
  define: (ability: string, check: AbilityCallback, options?: AbilityOptions) => currentApp().service('gate').define(ability, check, options),
  policy: (model: abstract new (...args: any[]) => object, policy: PolicyClass) => currentApp().service('gate').policy(model, policy),
  before: (check: (user: any, ability: string, ...args: any[]) => boolean | undefined | Promise<boolean | undefined>) =>
    currentApp().service('gate').before(check),
  allows: async (ability: string, ...args: unknown[]) => (await requestContext()).can(ability, ...args),
  denies: async (ability: string, ...args: unknown[]) => (await requestContext()).cannot(ability, ...args),
  authorize: async (ability: string, ...args: unknown[]) => (await requestContext()).authorize(ability, ...args),
  forUser: (user: GateUser) => {
    const gate = currentApp().service('gate')
    return {
      allows: (ability: string, ...args: unknown[]) => gate.allows(user, ability, ...args),
      denies: (ability: string, ...args: unknown[]) => gate.denies(user, ability, ...args),
      authorize: (ability: string, ...args: unknown[]) => gate.authorize(user, ability, ...args),
    }
  },
}

async function requestContext(): Promise<HttpContext> {
  const ctx = currentHttpContext()
  if (!ctx) throw new Error('Gate.allows() asks for the user of the request being served; outside a request, use Gate.forUser(user).allows().')
  return ctx
}

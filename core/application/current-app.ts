import { currentScope, enterScope } from '../support/async-scope.ts'
import { KilnError } from '../support/errors.ts'
import type { Application } from './application.ts'

let lastBooted: Application | undefined

/**
 * Runs `fn` with `app` as the current application, so facades (`Route`,
 * `Broadcast`, `Event`, ...) reach it. Kiln does this around boot, each
 * request, each job and each command.
 *
 * @example
 * ```ts
 * await runWithApp(app, () => Route.get('/ping', () => 'pong'))
 * ```
 */
export function runWithApp<T>(app: Application, fn: () => T): T {
  return enterScope({ app }, fn)
}

/** Remembers the most recently booted app, for scripts with no request in flight. @example `setLastBootedApp(app)` */
export function setLastBootedApp(app: Application | undefined): void {
  lastBooted = app
}

/**
 * The application in scope: the one running this request, job or command, or
 * else the most recently booted one.
 *
 * @example
 * ```ts
 * currentApp().config.get('app.name')
 * ```
 */
export function currentApp(): Application {
  const app = (currentScope()?.app as Application | undefined) ?? lastBooted
  if (!app) throw new KilnError('No Kiln application is running.', { hint: 'Create one with createApp({ root }) first.' })
  return app
}

/** The app in scope, or undefined. @example `maybeCurrentApp()?.logger.info('x')` */
export function maybeCurrentApp(): Application | undefined {
  return (currentScope()?.app as Application | undefined) ?? lastBooted
}

import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * What is in scope for the code running now: the application (boot, a job,
 * a command, a request) and, during a request, its context. One store for
 * both, because on Node 20 every AsyncLocalStorage in use adds work to every
 * promise the process creates; a request enters it once, not twice.
 *
 * Typed loosely on purpose: `current-app.ts` and `http-context.ts` give
 * callers the real types, and neither imports the other through here.
 */
export interface Scope {
  app: unknown
  request?: unknown
}

const storage = new AsyncLocalStorage<Scope>()

/**
 * Runs `fn` with `scope` in effect.
 *
 * @example
 * ```ts
 * enterScope({ app }, () => currentApp())
 * ```
 */
export function enterScope<T>(scope: Scope, fn: () => T): T {
  return storage.run(scope, fn)
}

/**
 * The scope in effect, if any.
 *
 * @example
 * ```ts
 * const app = currentScope()?.app
 * ```
 */
export function currentScope(): Scope | undefined {
  return storage.getStore()
}

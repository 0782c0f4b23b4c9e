import type { Env } from './env.ts'

/** What a config file's factory receives. */
export interface ConfigContext {
  env: Env
  root: string
}

/** A config file's default export: a value, or a factory evaluated per application. */
export type ConfigDefinition<T> = T | ((ctx: ConfigContext) => T)

/**
 * Declares a `config/*.ts` file. Pass a factory to read the environment: it runs
 * once per application, so test apps with different environments stay apart.
 *
 * @example
 * ```ts
 * // config/session.ts
 * import { defineConfig } from 'kiln-framework'
 * export default defineConfig(({ env }) => ({
 *   driver: env.get('SESSION_DRIVER', 'fs'),
 *   lifetime: 120,
 * }))
 * ```
 */
export function defineConfig<T>(definition: ConfigDefinition<T>): ConfigDefinition<T> {
  return definition
}

/** Evaluates a definition for one application. @example `resolveDefinition(mod.default, { env, root })` */
export function resolveDefinition<T>(definition: ConfigDefinition<T>, ctx: ConfigContext): T {
  return typeof definition === 'function' ? (definition as (c: ConfigContext) => T)(ctx) : definition
}

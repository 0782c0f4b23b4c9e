import { KilnError } from '../../support/errors.ts'
import type { Middleware, MiddlewareRef } from './middleware.ts'

/** Options of an alias. */
export interface AliasOptions {
  /**
   * Checks the parameters of each use when routes compile (at boot), so a
   * misconfigured route fails before it serves: throw to refuse.
   */
  validate?(params: string[]): void
}

/** A middleware bound to its alias parameters. */
export interface ResolvedMiddleware {
  fn: Middleware
  params: string[]
  /** The alias or group it came from, for `route:list`. */
  label: string
}

/**
 * Middleware aliases and groups. Plugins add aliases (`auth`, `abilities`,
 * `signed`) and append to the `web` and `api` groups without editing core.
 *
 * @example
 * ```ts
 * app.middleware.alias('admin', adminOnly)
 * app.middleware.appendToGroup('web', 'share-user')
 * Route.get('/admin', handler).middleware(['auth:web', 'admin'])
 * ```
 */
export class MiddlewareRegistry {
  private readonly aliases = new Map<string, Middleware>()
  private readonly validators = new Map<string, (params: string[]) => void>()
  private readonly groups = new Map<string, MiddlewareRef[]>([
    ['web', []],
    ['api', []],
  ])

  /**
   * Names a middleware. `validate` checks each use's parameters at boot.
   *
   * @example
   * ```ts
   * registry.alias('role', role, { validate: (params) => { if (params.length === 0) throw new Error('role needs a role name') } })
   * ```
   */
  alias(name: string, fn: Middleware, options: AliasOptions = {}): this {
    if (this.groups.has(name)) throw new KilnError(`"${name}" is already a middleware group.`)
    this.aliases.set(name, fn)
    if (options.validate) this.validators.set(name, options.validate)
    else this.validators.delete(name)
    return this
  }

  /** True when an alias exists. @example `registry.hasAlias('auth')` */
  hasAlias(name: string): boolean {
    return this.aliases.has(name)
  }

  /** Defines (or replaces) a group. @example `registry.group('admin', ['web', 'auth:web'])` */
  group(name: string, refs: MiddlewareRef[]): this {
    this.groups.set(name, [...refs])
    return this
  }

  /** Adds to the end of a group (created if missing). @example `registry.appendToGroup('api', 'throttle:60,1')` */
  appendToGroup(name: string, ref: MiddlewareRef): this {
    this.groups.set(name, [...(this.groups.get(name) ?? []), ref])
    return this
  }

  /** Adds to the start of a group. @example `registry.prependToGroup('api', stateful)` */
  prependToGroup(name: string, ref: MiddlewareRef): this {
    this.groups.set(name, [ref, ...(this.groups.get(name) ?? [])])
    return this
  }

  /** The members of a group. @example `registry.groupMembers('web')` */
  groupMembers(name: string): readonly MiddlewareRef[] {
    return this.groups.get(name) ?? []
  }

  /**
   * Expands refs (groups recursively, aliases with parameters) to functions.
   * Unknown names fail loudly, naming the middleware.
   *
   * @example
   * ```ts
   * registry.resolve(['web', 'auth:tok'])
   * ```
   */
  resolve(refs: readonly MiddlewareRef[], seen: Set<string> = new Set()): ResolvedMiddleware[] {
    const out: ResolvedMiddleware[] = []
    for (const ref of refs) {
      if (typeof ref === 'function') {
        out.push({ fn: ref, params: [], label: ref.name || 'closure' })
        continue
      }
      const colon = ref.indexOf(':')
      const name = colon === -1 ? ref : ref.slice(0, colon)
      const params =
        colon === -1
          ? []
          : ref
              .slice(colon + 1)
              .split(',')
              .map((p) => p.trim())
              .filter(Boolean)
      const group = this.groups.get(name)
      if (group && colon === -1) {
        if (seen.has(name)) throw new KilnError(`Middleware group "${name}" includes itself.`)
        out.push(...this.resolve(group, new Set([...seen, name])))
        continue
      }
      const fn = this.aliases.get(name)
      if (!fn) {
        throw new KilnError(`Unknown middleware "${name}".`, {
          hint: `Known aliases: ${[...this.aliases.keys()].sort().join(', ') || 'none'}; groups: ${[...this.groups.keys()].join(', ')}.`,
        })
      }
      const validate = this.validators.get(name)
      if (validate) {
        try {
          validate(params)
        } catch (error) {
          throw new KilnError(`Middleware "${ref}": ${error instanceof Error ? error.message : String(error)}`)
        }
      }
      out.push({ fn, params, label: ref })
    }
    return out
  }
}

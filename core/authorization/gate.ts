import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { KilnError } from '../support/errors.ts'

/** Whoever asks: the signed-in user, or `undefined` for a guest (guests are refused unless an ability says otherwise). */
export type GateUser = object | undefined

/** An ability's check: true allows. @example `(user, todo) => todo.user_id === user.id` */
export type AbilityCallback = (user: any, ...args: any[]) => boolean | undefined | Promise<boolean | undefined>

/** A policy class: one method per ability (`update(user, todo)`), and an optional `before(user, ability)`. */
export type PolicyClass = new () => object

type ModelClassLike = abstract new (...args: any[]) => object

/**
 * Refused by a gate or a policy: a 403 whose JSON body is `{ message }`.
 *
 * @example
 * ```ts
 * throw new AuthorizationError('You may not change this to-do.')
 * ```
 */
export class AuthorizationError extends KilnError {
  readonly status = 403
  constructor(message = 'This action is unauthorized.') {
    super(message, { code: 'E_UNAUTHORIZED_ACCESS' })
    this.name = 'AuthorizationError'
  }
}

/** What `define()` accepts besides the callback. */
export interface AbilityOptions {
  /** Call the check for guests too (with `user` undefined); otherwise guests are refused without asking. */
  allowGuests?: boolean
}

/**
 * The app's abilities and policies (`app.service('gate')`, the `Gate`
 * facade): `define()` names a check, `policy()` maps a model class to a
 * policy class, and a model without one is looked up once in
 * `app/policies/<model>-policy.ts`. `allows(user, ability, ...args)` asks;
 * an ability with a model argument goes to the model's policy first.
 *
 * @example
 * ```ts
 * gate.define('see-reports', (user) => user.is_admin)
 * gate.policy(Todo, TodoPolicy)
 * await gate.allows(user, 'update', todo) // TodoPolicy#update(user, todo)
 * ```
 */
export class AuthorizationGate {
  private readonly abilities = new Map<string, { check: AbilityCallback; options: AbilityOptions }>()
  private readonly policies = new Map<Function, object | null>()
  private readonly befores: AbilityCallback[] = []

  /** @param root The app folder, where `app/policies/` is searched. */
  constructor(private readonly root: string) {}

  /** Names an ability and its check. @example `gate.define('update-todo', (user, todo) => todo.user_id === user.id)` */
  define(ability: string, check: AbilityCallback, options: AbilityOptions = {}): this {
    this.abilities.set(ability, { check, options })
    return this
  }

  /** The policy of a model class. @example `gate.policy(Todo, TodoPolicy)` */
  policy(model: ModelClassLike, policy: PolicyClass): this {
    this.policies.set(model, new policy())
    return this
  }

  /** A check run before every other: true or false decides, undefined goes on. @example `gate.before((user) => user.is_admin || undefined)` */
  before(check: (user: any, ability: string, ...args: any[]) => boolean | undefined | Promise<boolean | undefined>): this {
    this.befores.push(check as AbilityCallback)
    return this
  }

  /** Whether `user` may do `ability` (with its arguments). @example `await gate.allows(user, 'update', todo)` */
  async allows(user: GateUser, ability: string, ...args: unknown[]): Promise<boolean> {
    for (const before of this.befores) {
      if (user === undefined) break
      const verdict = await before(user, ability, ...args)
      if (verdict === true || verdict === false) return verdict
    }
    const policy = await this.policyFor(args[0])
    if (policy) {
      const own = policy as Record<string, unknown>
      if (user !== undefined && typeof own.before === 'function') {
        const verdict = (await (own.before as AbilityCallback).call(policy, user, ability, ...args)) as boolean | undefined
        if (verdict === true || verdict === false) return verdict
      }
      // Only the policy's own methods: never Object.prototype's (`toString`...), its constructor or its before().
      const method =
        ability !== 'constructor' && ability !== 'before' && Object.hasOwn(Object.getPrototypeOf(policy) as object, ability) ? own[ability] : undefined
      if (typeof method === 'function') return user !== undefined && (await (method as AbilityCallback).call(policy, user, ...args)) === true
    }
    const defined = this.abilities.get(ability)
    if (!defined) return false
    if (user === undefined && !defined.options.allowGuests) return false
    return (await defined.check(user, ...args)) === true
  }

  /** The opposite of `allows`. @example `await gate.denies(user, 'update', todo)` */
  async denies(user: GateUser, ability: string, ...args: unknown[]): Promise<boolean> {
    return !(await this.allows(user, ability, ...args))
  }

  /** Throws an {@link AuthorizationError} (403) unless allowed. @example `await gate.authorize(user, 'update', todo)` */
  async authorize(user: GateUser, ability: string, ...args: unknown[]): Promise<void> {
    if (!(await this.allows(user, ability, ...args))) throw new AuthorizationError()
  }

  /**
   * The policy of a model instance or class: registered, else
   * `app/policies/<kebab-model>-policy.ts` (its default export or its
   * `<Model>Policy` export), looked up once per class.
   */
  private async policyFor(subject: unknown): Promise<object | undefined> {
    const model = typeof subject === 'function' ? subject : subject !== null && typeof subject === 'object' ? subject.constructor : undefined
    if (!model || model === Object) return undefined
    if (!this.policies.has(model)) this.policies.set(model, await this.discover(model.name))
    return this.policies.get(model) ?? undefined
  }

  private async discover(model: string): Promise<object | null> {
    const base = join(this.root, 'app/policies', `${model.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}-policy`)
    const file = ['.ts', '.js'].map((ext) => base + ext).find((path) => existsSync(path))
    if (!file) return null
    const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    const Policy = exported[`${model}Policy`] ?? exported.default
    if (typeof Policy !== 'function') throw new KilnError(`${file} must export the class ${model}Policy.`, { code: 'E_POLICY_NOT_FOUND' })
    return new (Policy as PolicyClass)()
  }
}

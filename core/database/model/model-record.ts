import { inspect } from 'node:util'
import { FORBIDDEN_KEYS } from '../../support/dot-path.ts'
import { KilnError } from '../../support/errors.ts'
import { ATTRIBUTE_HANDLER, sameValue } from './model-attributes.ts'
import { MassAssignmentError } from './model-errors.ts'
import { inspectModel } from './model-inspect.ts'
import { deleteModel, forceDeleteModel, restoreModel, saveModel, type PersistedClass } from './model-persistence.ts'
import { attributesToDict } from './model-serialise.ts'

/** What a model's instance side reads of its class (`Model` narrows it to `ModelClass`). */
export interface RecordClass extends PersistedClass {
  readonly name: string
  readonly hidden: readonly string[]
  isFillable(key: string): boolean
}

/**
 * The instance side of `Model`: attributes read and written as properties,
 * mass assignment, dirty tracking, writes and serialisation. Its own file so
 * that model.ts holds the class side (statics, queries, relations); apps
 * extend `Model`, never this.
 *
 * @example
 * ```ts
 * class Post extends Model {} // Model extends ModelRecord
 * new Post({ title: 'Hi' }).toDict()
 * ```
 */
export class ModelRecord {
  /** @internal */ $attributes: Record<string, unknown> = {}
  /** @internal */ $original: Record<string, unknown> = {}
  /** True once saved to, or loaded from, the database. */
  $exists = false

  constructor(attributes: Record<string, unknown> = {}) {
    const proxy = new Proxy<ModelRecord>(this, ATTRIBUTE_HANDLER as ProxyHandler<ModelRecord>)
    if (Object.keys(attributes).length > 0) proxy.fill(attributes)
    return proxy
  }

  /** The model's class. @example `post.modelClass.table` */
  get modelClass(): RecordClass {
    return this.constructor as unknown as RecordClass
  }

  // ---- attributes ----------------------------------------------------------

  /** The primary key's value. @example `post.getKey()` */
  getKey(): unknown {
    return this.$attributes[this.modelClass.primaryKey]
  }

  /** An attribute by name (for names a method shadows). @example `model.getAttribute('delete')` */
  getAttribute<T = unknown>(key: string): T {
    return this.$attributes[key] as T
  }

  /** Sets an attribute by name. @example `model.setAttribute('title', 'Hi')` */
  setAttribute(key: string, value: unknown): this {
    if (FORBIDDEN_KEYS.has(key)) throw new KilnError(`"${key}" cannot be an attribute.`)
    this.$attributes[key] = value
    return this
  }

  /**
   * Mass-assigns attributes. Any that `fillable`/`guarded` refuse stop it
   * before one is set, with a `MassAssignmentError` naming them: a silently
   * dropped field hides a bug, and a guarded one (`is_admin`) is an attack.
   *
   * @example
   * ```ts
   * post.fill(request.only(['title', 'body']))
   * ```
   */
  fill(attributes: Record<string, unknown>): this {
    const Class = this.modelClass
    const entries = Object.entries(attributes)
    const refused = entries.filter(([key]) => !Class.isFillable(key)).map(([key]) => key)
    if (refused.length > 0) throw new MassAssignmentError(Class.name, refused)
    for (const [key, value] of entries) this.setAttribute(key, value)
    return this
  }

  /** Sets attributes whatever `fillable` says (code that chose them itself, never request input). @example `user.forceFill({ is_admin: true })` */
  forceFill(attributes: Record<string, unknown>): this {
    for (const [key, value] of Object.entries(attributes)) this.setAttribute(key, value)
    return this
  }

  /** Changed attributes since load or save. @example `post.getDirty()` */
  getDirty(): Record<string, unknown> {
    const dirty: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(this.$attributes)) if (!sameValue(value, this.$original[key])) dirty[key] = value
    return dirty
  }

  /** True when something changed (or that one attribute changed). @example `post.isDirty('title')` */
  isDirty(key?: string): boolean {
    const dirty = this.getDirty()
    return key ? key in dirty : Object.keys(dirty).length > 0
  }

  // ---- persistence ---------------------------------------------------------

  /**
   * Inserts or updates the row, with timestamps and events
   * (`saving`, `creating`/`updating`, `created`/`updated`, `saved`).
   * Resolves to false when a listener cancelled it.
   *
   * @example
   * ```ts
   * post.title = 'New title'
   * await post.save()
   * ```
   */
  async save(): Promise<boolean> {
    return saveModel(this)
  }

  /**
   * Deletes the row; soft-deleting models set `deleted_at` instead (and fire `trashed`).
   *
   * @example
   * ```ts
   * await post.delete()
   * ```
   */
  async delete(): Promise<boolean> {
    return deleteModel(this)
  }

  /** Brings back a soft-deleted model. @example `await post.restore()` */
  async restore(): Promise<boolean> {
    return restoreModel(this)
  }

  /** Deletes the row for good, even on soft-deleting models. @example `await post.forceDelete()` */
  async forceDelete(): Promise<boolean> {
    return forceDeleteModel(this)
  }

  /** True for a soft-deleted model. @example `post.trashed()` */
  trashed(): boolean {
    return this.modelClass.softDeletes && this.$attributes.deleted_at != null
  }

  // ---- serialisation -------------------------------------------------------

  /** Attributes without `hidden` ones, dates as ISO strings. @example `post.toDict()` */
  toDict(): Record<string, unknown> {
    return attributesToDict(this.$attributes, this.modelClass.hidden)
  }

  /** What `JSON.stringify` uses: `toDict()`. @example `JSON.stringify(post)` */
  toJSON(): Record<string, unknown> {
    return this.toDict()
  }
}

// What `console.log`, `util.inspect` and `kiln repl` show: the class and its attributes. On the prototype, not a
// class member: a member keyed by a symbol would be named in the declaration files of every mixin
// (`HasApiTokens(Model)`), which cannot name it.
Object.defineProperty(ModelRecord.prototype, inspect.custom, { value: inspectModel, writable: true, configurable: true })

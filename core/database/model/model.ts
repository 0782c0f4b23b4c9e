import type { Kysely } from 'kysely'
import { currentApp } from '../../application/current-app.ts'
import { FORBIDDEN_KEYS } from '../../support/dot-path.ts'
import { KilnError } from '../../support/errors.ts'
import { castToDb, type Cast } from './casts.ts'
import { column } from './identifiers.ts'
import { LISTENERS, type ModelEventName, type ModelListener, type ModelObserver } from './model-events.ts'
import { ModelQuery } from './model-query.ts'
import { findByKey } from './find-by-key.ts'
import { FactoryBuilder } from '../factory/factory.ts'
import { defaultCast, snake, syncOriginal } from './model-attributes.ts'
import { castRow, copyAttributes } from './model-hydration.ts'
import { ModelRecord } from './model-record.ts'
import { ModelNotFoundError } from './model-errors.ts'

/**
 * What a model's key column holds, so `find` can refuse keys that cannot be
 * in it without asking the database.
 *
 * @example
 * ```ts
 * class Invoice extends Model { static keyType: KeyType = 'uuid' }
 * ```
 */
export type KeyType = 'number' | 'bigint' | 'uuid' | 'string'

/** A model class: the statics that queries use. */
export type ModelClass<M extends Model = Model> = (new (attributes?: Record<string, unknown>) => M) & typeof Model

export { MassAssignmentError, ModelNotFoundError } from './model-errors.ts'

const registry = new Map<string, typeof Model>()

/**
 * Looks a model class up by its morph name (set by `morphName`, else the class name).
 *
 * @example
 * ```ts
 * modelByMorphName('User') // class User
 * ```
 */
export function modelByMorphName(name: string): typeof Model | undefined {
  return registry.get(name)
}

/**
 * The base of every model: a row of `static table`, with attributes read and
 * written as properties (`post.title`), casts, hidden fields, mass-assignment
 * rules, timestamps, soft deletes, relations and lifecycle events.
 *
 * @example
 * ```ts
 * class Post extends Model {
 *   static table = 'posts'
 *   static fillable = ['title', 'body', 'meta']
 *   static casts = { meta: 'json', published: 'boolean' } as const
 *   static softDeletes = true
 *   declare id: number
 *   declare title: string
 *   author() { return this.belongsTo(User, 'author_id') }
 * }
 * const post = await Post.create({ title: 'Hi', meta: { tags: [] } })
 * ```
 */
export class Model extends ModelRecord {
  static table: string
  static primaryKey = 'id'
  /**
   * What the key column holds. `number` (what `increments()` makes: a 32-bit
   * integer on PostgreSQL, 64-bit on SQLite) and `bigint` (64-bit) refuse
   * input that is not an integer in the column's range in `find`: a URL
   * segment like `1; drop` or `99999999999` finds nothing instead of failing
   * in the database. `uuid` refuses anything but a UUID; `string` takes
   * anything.
   */
  static keyType: KeyType = 'number'
  static timestamps = true
  static softDeletes = false
  static casts: Record<string, Cast> = {}
  static hidden: string[] = []
  /**
   * Attributes `create`/`fill` accept (mass assignment). Every other one is
   * refused with a `MassAssignmentError` naming it, unless `guarded` allows it.
   */
  static fillable: string[] = []
  /**
   * Attributes `create`/`fill` refuse. `['*']` (the default) refuses every
   * attribute `fillable` does not name; a list refuses those names only (when
   * `fillable` is empty); `[]` accepts everything.
   */
  static guarded: string[] = ['*']
  /** The database connection (default: the app's default). */
  static connection?: string
  /** The name stored in `*_type` columns of polymorphic relations (default: the class name). */
  static morphName?: string

  // ---- statics -------------------------------------------------------------

  /** @internal the Kysely to use: the transaction in scope, or the connection. */
  static async db(): Promise<Kysely<any>> {
    this.registerMorph()
    return currentApp().service('db').kysely(this.connection)
  }

  /** @internal records the class under its morph name (for `morphTo`), checking it has a table. */
  static registerMorph(): void {
    if (!this.table) throw new KilnError(`${this.name} has no static table.`)
    registry.set(this.morphName ?? this.name, this)
  }

  /** @internal */
  static async dialect(): Promise<'sqlite' | 'pgsql'> {
    return (await currentApp().service('db').connection(this.connection)).dialect
  }

  /** @internal a model from a database row. */
  static hydrate<M extends Model>(this: ModelClass<M>, row: Record<string, unknown>): M {
    return loadedModel(this, castRow(this, row))
  }

  /**
   * @internal a model loaded from the database, with a copy of attributes
   * already cast (another model's, a cache's): no column is cast again, and
   * the copy shares no date or JSON value with `attributes`.
   */
  static hydrateCopy<M extends Model>(this: ModelClass<M>, attributes: Record<string, unknown>): M {
    return loadedModel(this, copyAttributes(attributes))
  }

  /** @internal a value as the database stores it. */
  static toDbValue(key: string, value: unknown, dialect: 'sqlite' | 'pgsql'): unknown {
    return castToDb(this.casts[key] ?? defaultCast(this, key), value, dialect)
  }

  /** A query over this model. @example `User.query().where('email', '=', email).first()` */
  static query<M extends Model>(this: ModelClass<M>): ModelQuery<M> {
    return new ModelQuery<M>(this)
  }

  /** Creates and saves a model, through `fill`'s mass-assignment rules. @example `await Post.create({ title: 'Hi' })` */
  static async create<M extends Model>(this: ModelClass<M>, attributes: Record<string, unknown> = {}): Promise<M> {
    const model = new this(attributes)
    await model.save()
    return model
  }

  /** Creates and saves a model with any attributes, `fillable` or not (seeders, factories). @example `await User.forceCreate({ is_admin: true })` */
  static async forceCreate<M extends Model>(this: ModelClass<M>, attributes: Record<string, unknown> = {}): Promise<M> {
    const model = new this().forceFill(attributes)
    await model.save()
    return model
  }

  /** True when `create`/`fill` accept the attribute (see `fillable` and `guarded`). @example `Post.isFillable('title')` */
  static isFillable(key: string): boolean {
    if (FORBIDDEN_KEYS.has(key)) return false
    if (this.fillable.includes(key)) return true
    if (this.guarded.includes('*') || this.guarded.includes(key)) return false
    return this.fillable.length === 0
  }

  /**
   * The model's factory (`database/factories/<model>-factory.ts`, made by
   * `kiln make:factory`): `count`, states, relations, then `make()` or `create()`.
   *
   * @example
   * ```ts
   * const users = await User.factory().count(3).create()
   * const draft = await Post.factory().state('draft').for(users[0]).create({ title: 'Hello' })
   * ```
   */
  static factory<M extends Model>(this: ModelClass<M>): FactoryBuilder<M>
  static factory<M extends Model>(this: ModelClass<M>, count: number): FactoryBuilder<M, M[]>
  static factory<M extends Model>(this: ModelClass<M>, count?: number): FactoryBuilder<M> | FactoryBuilder<M, M[]> {
    const builder = new FactoryBuilder<M>(this)
    return count === undefined ? builder : builder.count(count)
  }

  /** Finds by primary key. @example `await Post.find(1)` */
  static async find<M extends Model>(this: ModelClass<M>, key: unknown): Promise<M | undefined> {
    if (key === undefined || key === null || (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'bigint')) return undefined
    return findByKey(this, key)
  }

  /** Finds by primary key or throws a 404 `ModelNotFoundError`. @example `await Post.findOrFail(params.post)` */
  static async findOrFail<M extends Model>(this: ModelClass<M>, key: unknown): Promise<M> {
    const model = await this.find(key)
    if (!model) throw new ModelNotFoundError(this.name, key)
    return model
  }

  /** Every row. @example `await Post.all()` */
  static async all<M extends Model>(this: ModelClass<M>): Promise<M[]> {
    return this.query().get()
  }

  /** Listens to one lifecycle event of this model class. @example `Post.on('creating', (p) => { p.slug = slugify(p.title) })` */
  static on<M extends Model>(this: ModelClass<M>, event: ModelEventName, listener: ModelListener<M>): void {
    let map = LISTENERS.get(this)
    if (!map) LISTENERS.set(this, (map = new Map()))
    map.set(event, [...(map.get(event) ?? []), listener as ModelListener])
  }

  /** Registers an observer (a method per event). @example `Post.observe({ created: (p) => audit(p) })` */
  static observe<M extends Model>(this: ModelClass<M>, observer: ModelObserver<M>): void {
    for (const [event, listener] of Object.entries(observer)) if (listener) this.on(event as ModelEventName, listener.bind(observer) as ModelListener<M>)
  }

  /** Forgets every listener of this class (tests). @example `Post.clearListeners()` */
  static clearListeners(): void {
    LISTENERS.delete(this)
  }

  /** Reloads attributes from the database. @example `await post.refresh()` */
  async refresh(): Promise<this> {
    const Class = this.modelClass
    const fresh = await Class.query().withTrashed().where(Class.primaryKey, '=', this.getKey()).first()
    if (!fresh) throw new ModelNotFoundError(Class.name, this.getKey())
    this.$attributes = { ...fresh.$attributes }
    syncOriginal(this)
    return this
  }

  // ---- relations -----------------------------------------------------------

  /** `posts` of a user: rows of `Related` whose `foreignKey` is this key. @example `user.posts()` */
  hasMany<R extends Model>(Related: ModelClass<R>, foreignKey?: string, localKey?: string): ModelQuery<R> {
    const fk = foreignKey ?? `${snake(this.modelClass.name)}_id`
    return Related.query().withDefaults({ [column(fk)]: this.$attributes[localKey ?? this.modelClass.primaryKey] })
  }

  /** The owner: the `Related` row whose key is this `foreignKey`. @example `await post.author().first()` */
  belongsTo<R extends Model>(Related: ModelClass<R>, foreignKey?: string, ownerKey?: string): ModelQuery<R> {
    const fk = foreignKey ?? `${snake(Related.name)}_id`
    return Related.query().where(ownerKey ?? Related.primaryKey, '=', this.$attributes[column(fk)] ?? null)
  }

  /** Polymorphic children: rows of `Related` with `${name}_type` and `${name}_id` pointing here. @example `user.morphMany(Token, 'tokenable')` */
  morphMany<R extends Model>(Related: ModelClass<R>, name: string): ModelQuery<R> {
    registry.set(this.modelClass.morphName ?? this.modelClass.name, this.modelClass)
    return Related.query().withDefaults({ [column(`${name}_type`)]: this.modelClass.morphName ?? this.modelClass.name, [`${name}_id`]: this.getKey() })
  }

  /** The polymorphic owner named by `${name}_type` / `${name}_id`. @example `await token.morphTo('tokenable')` */
  async morphTo<R extends Model = Model>(name: string): Promise<R | undefined> {
    const type = this.$attributes[`${name}_type`]
    const Related = typeof type === 'string' ? modelByMorphName(type) : undefined
    if (!Related) return undefined
    return (await (Related as unknown as ModelClass<R>).find(this.$attributes[`${name}_id`])) ?? undefined
  }

  // ---- internals -----------------------------------------------------------

  /** The model's class. @example `post.modelClass.table` */
  override get modelClass(): ModelClass<this> {
    return this.constructor as ModelClass<this>
  }
}

/** A loaded model whose attributes are `attributes` (its own object from now on). */
function loadedModel<M extends Model>(Class: ModelClass<M>, attributes: Record<string, unknown>): M {
  const model = new Class()
  // Whole objects assigned at once: every row of every query comes through here, and a proxy trap per column
  // cost more than the casts (own fields take the set trap's fast path).
  model.$attributes = attributes
  model.$original = { ...attributes }
  model.$exists = true
  return model
}

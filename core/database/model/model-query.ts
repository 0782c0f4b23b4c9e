import type { Kysely, SelectQueryBuilder, UpdateQueryBuilder, UpdateResult } from 'kysely'
import { kysely } from '../kysely-module.ts'
import { column, operator } from './identifiers.ts'
import { writeWithoutWaiting } from './write-without-waiting.ts'
import type { Model, ModelClass } from './model.ts'
import { fireQueryWrite, hasQueryWriteListeners } from './model-events.ts'

type Where =
  | { kind: 'where'; column: string; op: string; value: unknown }
  | { kind: 'in'; column: string; values: unknown[]; not: boolean }
  | { kind: 'null'; column: string; not: boolean }

/** A page of results. */
export interface Paginated<M> {
  data: M[]
  total: number
  perPage: number
  currentPage: number
  lastPage: number
}

/**
 * A query over one model's table. Column names and operators are checked
 * before they reach SQL; values are always bound.
 *
 * @example
 * ```ts
 * const posts = await Post.query().where('published', '=', true).orderBy('created_at', 'desc').limit(10).get()
 * const page = await Post.query().paginate(15, 2)
 * await user.tokens().where('id', '=', 3).delete()
 * ```
 */
export class ModelQuery<M extends Model> {
  private readonly wheres: Where[] = []
  private orders: Array<[string, 'asc' | 'desc']> = []
  private limitValue?: number
  private offsetValue?: number
  private trashed: 'without' | 'with' | 'only' = 'without'
  /** Attributes a relation sets on `create()` (`user_id`, `tokenable_type`...). */
  private readonly defaults: Record<string, unknown> = {}

  constructor(readonly model: ModelClass<M>) {}

  /**
   * Adds a condition: `where(col, op, value)`, `where(col, value)`, or `where({ col: value })`.
   *
   * @example
   * ```ts
   * Post.query().where('views', '>', 100).where('author_id', 1)
   * ```
   */
  where(col: string | Record<string, unknown>, op?: unknown, value?: unknown): this {
    if (typeof col === 'object') {
      for (const [k, v] of Object.entries(col)) this.where(k, '=', v)
      return this
    }
    if (value === undefined && arguments.length === 2) [op, value] = ['=', op]
    const checked = operator(String(op))
    if (value === null && (checked === '=' || checked === 'is')) return this.whereNull(col)
    if (value === null && (checked === '!=' || checked === '<>' || checked === 'is not')) return this.whereNotNull(col)
    this.wheres.push({ kind: 'where', column: column(col), op: checked, value })
    return this
  }

  /** `col IN (...)`. @example `Post.query().whereIn('id', [1, 2])` */
  whereIn(col: string, values: unknown[]): this {
    this.wheres.push({ kind: 'in', column: column(col), values: [...values], not: false })
    return this
  }

  /** `col NOT IN (...)`. @example `Post.query().whereNotIn('id', [1])` */
  whereNotIn(col: string, values: unknown[]): this {
    this.wheres.push({ kind: 'in', column: column(col), values: [...values], not: true })
    return this
  }

  /** `col IS NULL`. @example `Post.query().whereNull('published_at')` */
  whereNull(col: string): this {
    this.wheres.push({ kind: 'null', column: column(col), not: false })
    return this
  }

  /** `col IS NOT NULL`. @example `Post.query().whereNotNull('published_at')` */
  whereNotNull(col: string): this {
    this.wheres.push({ kind: 'null', column: column(col), not: true })
    return this
  }

  /** @example `Post.query().orderBy('created_at', 'desc')` */
  orderBy(col: string, direction: 'asc' | 'desc' = 'asc'): this {
    this.orders.push([column(col), direction === 'desc' ? 'desc' : 'asc'])
    return this
  }

  /** At most `n` rows (a whole number from 0; anything else is brought into that range). @example `Post.query().limit(10)` */
  limit(n: number): this {
    this.limitValue = wholeCount(n)
    return this
  }

  /** Skips `n` rows (a whole number from 0; anything else is brought into that range). @example `Post.query().offset(20)` */
  offset(n: number): this {
    this.offsetValue = wholeCount(n)
    return this
  }

  /** Includes soft-deleted rows. @example `Post.query().withTrashed()` */
  withTrashed(): this {
    this.trashed = 'with'
    return this
  }

  /** Only soft-deleted rows. @example `Post.query().onlyTrashed()` */
  onlyTrashed(): this {
    this.trashed = 'only'
    return this
  }

  /** @internal attributes a relation sets on create. */
  withDefaults(values: Record<string, unknown>): this {
    Object.assign(this.defaults, values)
    for (const [k, v] of Object.entries(values)) this.where(k, '=', v)
    return this
  }

  /** Every matching model. @example `await Post.query().get()` */
  async get(): Promise<M[]> {
    const db = await this.model.db()
    const dialect = await this.model.dialect()
    let query = this.apply(db.selectFrom(this.model.table).selectAll(), dialect) as SelectQueryBuilder<any, any, any>
    for (const [col, dir] of this.orders) query = query.orderBy(col, dir)
    // Literals, not bound parameters: the values are integers this class made, and SQLite re-plans a statement for
    // every run when its LIMIT is a parameter (three times the cost of a lookup by key).
    const { sql } = kysely()
    if (this.limitValue !== undefined) query = query.limit(sql.lit(this.limitValue))
    if (this.offsetValue !== undefined) {
      // SQLite needs a LIMIT before OFFSET; -1 means none there, and PostgreSQL needs none at all.
      if (this.limitValue === undefined && dialect === 'sqlite') query = query.limit(sql.lit(-1))
      query = query.offset(sql.lit(this.offsetValue))
    }
    const rows = await query.execute()
    return rows.map((row) => this.model.hydrate(row))
  }

  /** The first match, or undefined. @example `await Post.query().where('slug', slug).first()` */
  async first(): Promise<M | undefined> {
    const previous = this.limitValue
    this.limitValue = 1
    const [model] = await this.get()
    this.limitValue = previous
    return model
  }

  /** How many rows match. @example `await Post.query().count()` */
  async count(): Promise<number> {
    const db = await this.model.db()
    const row = await this.apply(
      db.selectFrom(this.model.table).select((eb) => eb.fn.countAll().as('count')),
      await this.model.dialect(),
    ).executeTakeFirst()
    return Number((row as { count?: unknown } | undefined)?.count ?? 0)
  }

  /**
   * One page: `{ data, total, perPage, currentPage, lastPage }`.
   *
   * @example
   * ```ts
   * await Post.query().orderBy('id').paginate(15, Number(request.input('page', 1)))
   * ```
   */
  async paginate(perPage = 15, page = 1): Promise<Paginated<M>> {
    // Both often come from a URL (`?page=99999999999999999999`): any number, or none, gives a safe whole number.
    const size = Math.max(1, wholeCount(perPage) || 15)
    const current = Math.max(1, wholeCount(page) || 1)
    const total = await this.count()
    const data = await this.limit(size)
      .offset((current - 1) * size)
      .get()
    return { data, total, perPage: size, currentPage: current, lastPage: Math.max(1, Math.ceil(total / size)) }
  }

  /** Updates matching rows (no model events). Returns how many. @example `await Post.query().where('draft', true).update({ draft: false })` */
  async update(values: Record<string, unknown>): Promise<number> {
    const db = await this.model.db()
    const dialect = await this.model.dialect()
    const result = await this.updateQuery(db, dialect, values).executeTakeFirst()
    await this.written('update', values)
    return Number(result.numUpdatedRows ?? 0)
  }

  /**
   * Updates matching rows at once or not at all (no model events): how many,
   * or undefined, having written nothing, when the database is busy (SQLite
   * locked by another writer; a PostgreSQL row lock held past 100 ms). Never
   * joins the caller's transaction: PostgreSQL writes on another connection,
   * SQLite (one connection) skips while a transaction is open. For
   * bookkeeping (last-used times, counters) that must never hold up a
   * request.
   *
   * @example
   * ```ts
   * const updated = await Token.query().whereIn('id', ids).tryUpdate({ last_used_at: new Date() })
   * if (updated === undefined) retryLater(ids)
   * ```
   */
  async tryUpdate(values: Record<string, unknown>): Promise<number | undefined> {
    const updated = await writeWithoutWaiting(this.model as ModelClass<Model>, (db, dialect) => this.updateQuery(db, dialect, values))
    if (updated !== undefined) await this.written('update', values)
    return updated
  }

  /**
   * Deletes matching rows (soft when the model soft-deletes; no model events).
   *
   * @example
   * ```ts
   * await Token.query().where('expires_at', '<', cutoff).delete()
   * ```
   */
  async delete(): Promise<number> {
    if (this.model.softDeletes && this.trashed !== 'only') return this.update({ deleted_at: new Date() })
    const db = await this.model.db()
    const result = await (
      this.apply(db.deleteFrom(this.model.table) as never, await this.model.dialect()) as { executeTakeFirst(): Promise<unknown> }
    ).executeTakeFirst()
    await this.written('delete')
    return Number((result as { numDeletedRows?: bigint }).numDeletedRows ?? 0)
  }

  /** Deletes matching rows for good, even on soft-deleting models. @example `await Post.query().onlyTrashed().forceDelete()` */
  async forceDelete(): Promise<number> {
    const db = await this.model.db()
    const result = await (
      this.apply(db.deleteFrom(this.model.table) as never, await this.model.dialect()) as { executeTakeFirst(): Promise<unknown> }
    ).executeTakeFirst()
    await this.written('delete')
    return Number((result as { numDeletedRows?: bigint }).numDeletedRows ?? 0)
  }

  /** Creates a model with the relation's keys set. @example `await user.posts().create({ title: 'Hi' })` */
  async create(attributes: Record<string, unknown> = {}): Promise<M> {
    // The relation's keys are set by the relation, not mass-assigned: they need not be fillable.
    const model = new this.model(attributes).forceFill(this.defaults)
    await model.save()
    return model
  }

  /** Creates a model with the relation's keys set, whatever `fillable` says. @example `await user.posts().forceCreate({ pinned: true })` */
  async forceCreate(attributes: Record<string, unknown> = {}): Promise<M> {
    const model = new this.model().forceFill({ ...attributes, ...this.defaults })
    await model.save()
    return model
  }

  private async written(kind: 'update' | 'delete', values: Record<string, unknown> = {}): Promise<void> {
    if (!hasQueryWriteListeners()) return
    const columns = Object.keys(values).map(column)
    if (kind === 'update' && this.model.timestamps && !columns.includes('updated_at')) columns.push('updated_at')
    return fireQueryWrite(this.model, { kind, columns })
  }

  private updateQuery(db: Kysely<any>, dialect: 'sqlite' | 'pgsql', values: Record<string, unknown>): UpdateQueryBuilder<any, any, any, UpdateResult> {
    const row: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(values)) row[column(k)] = this.model.toDbValue(k, v, dialect)
    if (this.model.timestamps && !('updated_at' in row)) row.updated_at = this.model.toDbValue('updated_at', new Date(), dialect)
    return this.apply(db.updateTable(this.model.table).set(row), dialect)
  }

  private apply<Q extends { where: (...args: any[]) => Q }>(query: Q, dialect: 'sqlite' | 'pgsql'): Q {
    let q = query
    const value = (col: string, v: unknown) => this.model.toDbValue(col.split('.').pop()!, v, dialect)
    for (const w of this.wheres) {
      if (w.kind === 'where') q = q.where(w.column, w.op, value(w.column, w.value))
      else if (w.kind === 'in')
        q =
          w.values.length === 0
            ? q.where((eb: any) => eb.val(w.not ? 1 : 0), '=', 1)
            : q.where(
                w.column,
                w.not ? 'not in' : 'in',
                w.values.map((v) => value(w.column, v)),
              )
      else q = q.where(w.column, w.not ? 'is not' : 'is', null)
    }
    if (this.model.softDeletes && this.trashed === 'without') q = q.where('deleted_at', 'is', null)
    if (this.model.softDeletes && this.trashed === 'only') q = q.where('deleted_at', 'is not', null)
    return q
  }
}

export type { Kysely }

/**
 * A row count for LIMIT and OFFSET: a whole number from 0 up to
 * `Number.MAX_SAFE_INTEGER`. They go into the SQL as literals, where
 * `Infinity`, `NaN` or `1e+308` would be a syntax error: too large is the
 * largest, not a number is 0.
 *
 * @example
 * ```ts
 * wholeCount(12.7)     // 12
 * wholeCount(Infinity) // 9007199254740991
 * wholeCount(NaN)      // 0
 * ```
 */
export function wholeCount(n: number): number {
  const value = Number(n)
  if (Number.isNaN(value) || value <= 0) return 0
  return Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER)
}

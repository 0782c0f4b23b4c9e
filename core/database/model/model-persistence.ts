import type { Kysely } from 'kysely'
import { castFromDb, type Cast } from './casts.ts'
import { dbValues, defaultCast, syncOriginal, type AttributeHolder } from './model-attributes.ts'
import { fireModelEvent } from './model-events.ts'

/** What writing a model reads of its class: these functions take this, not `Model`, so they stay out of model.ts's import circle. */
export interface PersistedClass {
  readonly table: string
  readonly primaryKey: string
  readonly timestamps: boolean
  readonly softDeletes: boolean
  readonly casts: Record<string, Cast>
  db(): Promise<Kysely<any>>
  dialect(): Promise<'sqlite' | 'pgsql'>
  toDbValue(key: string, value: unknown, dialect: 'sqlite' | 'pgsql'): unknown
}

/** A model as these functions write it (the proxy, so that listeners get what the app holds). */
export interface Persisted extends AttributeHolder {
  $exists: boolean
  readonly modelClass: PersistedClass
  getKey(): unknown
  isDirty(): boolean
  getDirty(): Record<string, unknown>
}

/**
 * `Model#save`: inserts or updates the row, with timestamps and events.
 *
 * @example
 * ```ts
 * await saveModel(post) // what post.save() does
 * ```
 */
export async function saveModel(model: Persisted): Promise<boolean> {
  const Class = model.modelClass
  if (!(await fireModelEvent(Class, 'saving', model))) return false
  const db = await Class.db()
  const dialect = await Class.dialect()
  const now = new Date()
  if (model.$exists) {
    if (!model.isDirty()) return (await fireModelEvent(Class, 'saved', model)) || true
    if (!(await fireModelEvent(Class, 'updating', model))) return false
    if (Class.timestamps) model.$attributes.updated_at = now
    const values = dbValues(model, model.getDirty(), dialect)
    await db
      .updateTable(Class.table)
      .set(values)
      .where(Class.primaryKey, '=', model.getKey() as never)
      .execute()
    syncOriginal(model)
    await fireModelEvent(Class, 'updated', model)
  } else {
    if (!(await fireModelEvent(Class, 'creating', model))) return false
    if (Class.timestamps) {
      model.$attributes.created_at ??= now
      model.$attributes.updated_at ??= now
    }
    const values = dbValues(model, model.$attributes, dialect)
    const row = await db.insertInto(Class.table).values(values).returningAll().executeTakeFirstOrThrow()
    for (const [key, value] of Object.entries(row)) model.$attributes[key] = castFromDb(Class.casts[key] ?? defaultCast(Class, key), value)
    model.$exists = true
    syncOriginal(model)
    await fireModelEvent(Class, 'created', model)
  }
  await fireModelEvent(Class, 'saved', model)
  return true
}

/**
 * `Model#delete`: deletes the row, or sets `deleted_at` on a soft-deleting model (and fires `trashed`).
 *
 * @example
 * ```ts
 * await deleteModel(post) // what post.delete() does
 * ```
 */
export async function deleteModel(model: Persisted): Promise<boolean> {
  const Class = model.modelClass
  if (!model.$exists) return false
  if (!(await fireModelEvent(Class, 'deleting', model))) return false
  if (Class.softDeletes) {
    model.$attributes.deleted_at = new Date()
    const db = await Class.db()
    await db
      .updateTable(Class.table)
      .set(dbValues(model, { deleted_at: model.$attributes.deleted_at }, await Class.dialect()))
      .where(Class.primaryKey, '=', model.getKey() as never)
      .execute()
    syncOriginal(model)
    await fireModelEvent(Class, 'trashed', model)
  } else await deleteRow(model)
  await fireModelEvent(Class, 'deleted', model)
  return true
}

/**
 * `Model#restore`: brings back a soft-deleted model.
 *
 * @example
 * ```ts
 * await restoreModel(post) // what post.restore() does
 * ```
 */
export async function restoreModel(model: Persisted): Promise<boolean> {
  const Class = model.modelClass
  if (!Class.softDeletes) return false
  model.$attributes.deleted_at = null
  const db = await Class.db()
  await db
    .updateTable(Class.table)
    .set({ deleted_at: null })
    .where(Class.primaryKey, '=', model.getKey() as never)
    .execute()
  syncOriginal(model)
  await fireModelEvent(Class, 'restored', model)
  return true
}

/**
 * `Model#forceDelete`: deletes the row for good, even on a soft-deleting model.
 *
 * @example
 * ```ts
 * await forceDeleteModel(post) // what post.forceDelete() does
 * ```
 */
export async function forceDeleteModel(model: Persisted): Promise<boolean> {
  const Class = model.modelClass
  if (!(await fireModelEvent(Class, 'deleting', model))) return false
  await deleteRow(model)
  await fireModelEvent(Class, 'forceDeleted', model)
  await fireModelEvent(Class, 'deleted', model)
  return true
}

/** Deletes the model's row and marks it as no longer stored. */
async function deleteRow(model: Persisted): Promise<void> {
  const Class = model.modelClass
  const db = await Class.db()
  await db
    .deleteFrom(Class.table)
    .where(Class.primaryKey, '=', model.getKey() as never)
    .execute()
  model.$exists = false
}

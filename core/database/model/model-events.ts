/** The lifecycle events of a model. */
export type ModelEventName =
  'creating' | 'created' | 'updating' | 'updated' | 'saving' | 'saved' | 'deleting' | 'deleted' | 'trashed' | 'restored' | 'forceDeleted'

/** A listener; returning `false` from a `-ing` event cancels the operation. */
export type ModelListener<M = any> = (model: M) => unknown

/** An object with a method per event. */
export type ModelObserver<M = any> = Partial<Record<ModelEventName, ModelListener<M>>>

/** Listeners for any model: the event dispatcher and model broadcasting hook in here. */
const globalListeners: Array<(event: ModelEventName, model: unknown) => unknown> = []

/**
 * Listens to every model's events (used by the events subsystem and by
 * model broadcasting). Returns a function that removes the listener.
 *
 * @example
 * ```ts
 * const stop = onAnyModelEvent((event, model) => console.log(event, model))
 * ```
 */
export function onAnyModelEvent(listener: (event: ModelEventName, model: unknown) => unknown): () => void {
  return addTo(globalListeners, listener)
}

/** Adds a listener to a list; the returned function removes it. */
function addTo<L>(list: L[], listener: L): () => void {
  list.push(listener)
  return () => {
    const i = list.indexOf(listener)
    if (i >= 0) list.splice(i, 1)
  }
}

/**
 * Fires an event: the class's own listeners (and its parents'), then global
 * ones. Resolves to false when a listener cancelled it.
 *
 * @example
 * ```ts
 * if (!(await fireModelEvent(Post, 'creating', post))) return false
 * ```
 */
export async function fireModelEvent(modelClass: object, event: ModelEventName, model: unknown): Promise<boolean> {
  const chain: object[] = []
  for (let c: object | null = modelClass; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c)
  for (const c of chain) {
    const listeners = LISTENERS.get(c)?.get(event) ?? []
    for (const listener of listeners) if ((await listener(model)) === false) return false
  }
  for (const listener of globalListeners) if ((await listener(event, model)) === false) return false
  return true
}

/** A write through a model's query builder: which rows is unknown, so `columns` says what changed (none for deletes). */
export interface QueryWrite {
  kind: 'update' | 'delete'
  /** The columns an update set (`updated_at` included when the model keeps timestamps). */
  columns: string[]
}

const queryWriteListeners: Array<(model: Function, write: QueryWrite) => unknown> = []

/**
 * Listens to writes made through a model's query builder (`Post.query()...update()`,
 * `.delete()`, `.forceDelete()`, `.tryUpdate()`), which fire no per-model
 * events: caches of rows learn here that some rows changed. Called after the
 * write, awaited by it. Returns a function that removes the listener.
 *
 * @example
 * ```ts
 * const stop = onAnyQueryWrite((model, write) => { if (model === Post) postCache.clear() })
 * ```
 */
export function onAnyQueryWrite(listener: (model: Function, write: QueryWrite) => unknown): () => void {
  return addTo(queryWriteListeners, listener)
}

/** @internal true when something listens to query writes (most apps: nothing, so writes skip the bookkeeping). */
export function hasQueryWriteListeners(): boolean {
  return queryWriteListeners.length > 0
}

/** @internal tells the query-write listeners. @example `await fireQueryWrite(Post, { kind: 'delete', columns: [] })` */
export async function fireQueryWrite(model: Function, write: QueryWrite): Promise<void> {
  for (const listener of queryWriteListeners) await listener(model, write)
}

/** @internal per-class listeners. */
export const LISTENERS = new WeakMap<object, Map<ModelEventName, ModelListener[]>>()

import { isPromiseLike } from '../../../core/index.ts'
import type { ChildRecord, ServerMemo, Snapshot } from '../protocol/snapshot.ts'
import { dehydrate, type TypedPath } from '../state/state.ts'
import { runFeatureHooks, type ComponentContext } from './component-hook.ts'

/**
 * The snapshot that ends every trip: the component's `dehydrate()`, its
 * state as plain values (typed ones listed in `types`), the features'
 * `dehydrate` hooks (listeners, client actions, a pending mount, effects),
 * the session tag and lifetime, and the checksum over it all.
 *
 * @example
 * ```ts
 * const snapshot = await dehydrateComponent(c, scope.children)
 * ```
 */
export function dehydrateComponent(c: ComponentContext, children: Record<string, ChildRecord>): Snapshot | Promise<Snapshot> {
  // A promise only when the component's dehydrate() or a feature's hook returns one: every update and mount ends here.
  const dehydrating = c.component.dehydrate?.()
  if (isPromiseLike(dehydrating)) return Promise.resolve(dehydrating).then(() => withHooks(c, children))
  return withHooks(c, children)
}

function withHooks(c: ComponentContext, children: Record<string, ChildRecord>): Snapshot | Promise<Snapshot> {
  const { data, types } = dehydrate(c.component.state(), c.run.name)
  c.data = data
  const hooks = runFeatureHooks(c.services.features, 'dehydrate', c)
  return hooks ? hooks.then(() => seal(c, children, types)) : seal(c, children, types)
}

function seal(c: ComponentContext, children: Record<string, ChildRecord>, types: TypedPath[]): Snapshot {
  const { run, services } = c
  const memo: Omit<ServerMemo, 'checksum'> = {
    data: c.data,
    errors: run.errors,
    session: services.binding.tag(run.ctx),
    expires: Math.ceil(Date.now() + services.config.snapshot_ttl_minutes * 60_000),
  }
  // Empty extras are left out, so a small component's snapshot stays small.
  const extras: Record<string, unknown> = { types, children, ...c.memo }
  for (const [key, value] of Object.entries(extras)) if (!empty(value)) (memo as unknown as Record<string, unknown>)[key] = value
  const fingerprint = { id: run.id, name: run.name }
  return { fingerprint, serverMemo: { ...memo, checksum: services.checksums.sign(fingerprint, memo) } as ServerMemo }
}

function empty(value: unknown): boolean {
  if (value === undefined || value === null) return true
  if (Array.isArray(value)) return value.length === 0
  return typeof value === 'object' && Object.keys(value).length === 0
}

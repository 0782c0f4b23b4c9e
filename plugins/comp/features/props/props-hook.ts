import { HttpException, KilnError, type HttpContext } from '../../../../core/index.ts'
import type { ComponentContext, ComponentHook } from '../../lifecycle/component-hook.ts'
import type { ServerMemo } from '../../protocol/snapshot.ts'
import { dehydrate } from '../../state/state.ts'
import { coerce } from '../../state/updates.ts'
import { BINDING, passedTo, type Binding } from './passed-props.ts'
import { modelableOf, reactivePropsOf } from './props-decorators.ts'

/** The reactive properties' values as they stood after mount or hydrate, to catch the component changing one. */
const ORIGINALS = Symbol('kiln.comp.reactive-originals')
/** The parent's binding of this component: `{ outer, inner, modifiers }`. */
const BINDINGS = Symbol('kiln.comp.bindings')

/** What the memo keeps of a parent's `wire:model` on the component. */
interface BindingMemo {
  outer: string
  inner: string
  modifiers: string[]
}

/**
 * Props between components. `@reactive()` properties take the value the
 * parent's render passes when the parent renders in the same request
 * (`passed-props.ts`); the browser may not update them (403), and the
 * component may not change them (`E_COMP_REACTIVE_MUTATED`). The memo lists
 * them as `props`, so the browser sends the child's snapshot along with its
 * parent's requests. A `@modelable()` property bound by the parent's
 * `wire:model` starts from the parent's value, is kept in the memo as
 * `bindings`, and follows the parent's value when the parent renders in
 * the same request.
 *
 * @example
 * ```ts
 * const features = [props, ...]
 * ```
 */
export const props: ComponentHook = {
  name: 'props',
  mount(c, params) {
    const binding = (params as Record<symbol, Binding | undefined>)[BINDING]
    const inner = modelableOf(c.Class)
    if (!binding || !inner) return
    ;(c.component as unknown as Record<string, unknown>)[inner] = copy(binding.value)
    c.set(BINDINGS, { outer: binding.outer, inner, modifiers: binding.modifiers } satisfies BindingMemo)
  },
  mounted(c) {
    c.set(ORIGINALS, snapshotOf(c))
  },
  hydrate(c, memo) {
    const bindings = memo.bindings as BindingMemo | undefined
    if (bindings) c.set(BINDINGS, bindings)
    const passed = passedTo(c.run.ctx, c.run.id)
    // A promise only when a parent passed values in this request: most updates are of a component alone.
    if (passed) return takePassed(c, memo, passed, bindings)
    if (reactivePropsOf(c.Class).length > 0) c.set(ORIGINALS, snapshotOf(c))
  },
  update(c, path) {
    const root = path.split('.')[0]!
    if (reactivePropsOf(c.Class).includes(root))
      throw new HttpException(
        403,
        `The property "${root.slice(0, 100)}" of ${c.Class.name} is reactive: it follows its parent and cannot be changed from the browser.`,
      )
  },
  dehydrate(c) {
    const names = reactivePropsOf(c.Class)
    const originals = c.get<Record<string, string>>(ORIGINALS) ?? {}
    for (const name of names) {
      if (name in originals && originals[name] !== fingerprint(c.data[name]))
        throw new KilnError(`${c.Class.name} changed its reactive property "${name}": a reactive property follows its parent, which alone may change it.`, {
          code: 'E_COMP_REACTIVE_MUTATED',
          hint: 'Change the value in the parent, or drop @reactive() if the component owns the value.',
        })
    }
    if (names.length > 0) c.memo.props = names
    const bindings = c.get<BindingMemo>(BINDINGS)
    if (bindings) c.memo.bindings = bindings
  },
}

/**
 * True when a parent rendered earlier in this request passed the component
 * of `entry` (a checked snapshot) a reactive or bound value that differs
 * from its snapshot's: then it must render again, even with nothing else
 * to do.
 *
 * @example
 * ```ts
 * if (propsMoved(ctx, listener)) await updateComponent(services, { ...listener, updates: [], calls: [], island: null }, ctx)
 * ```
 */
export function propsMoved(ctx: HttpContext, entry: { fingerprint: { id: string }; serverMemo: Record<string, unknown> }): boolean {
  const passed = passedTo(ctx, entry.fingerprint.id)
  if (!passed) return false
  const memo = entry.serverMemo
  const data = (memo.data ?? {}) as Record<string, unknown>
  const names = Array.isArray(memo.props) ? (memo.props as unknown[]) : []
  for (const name of names)
    if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(passed.params, name) && moved(passed.params[name], data[name])) return true
  const bindings = memo.bindings as BindingMemo | undefined
  return !!bindings && passed.binding?.outer === bindings.outer && moved(passed.binding.value, data[bindings.inner])
}

/**
 * True when a value the parent passes differs from the one in the child's
 * snapshot (compared as the snapshot stores them).
 *
 * @example
 * ```ts
 * moved(['a', 'b'], ['a']) // true
 * ```
 */
export function moved(passed: unknown, stored: unknown): boolean {
  return fingerprint(passed, true) !== JSON.stringify(stored ?? null)
}

/** A value as the snapshot stores it, as text; `raw` values are taken through dehydrate first. */
function fingerprint(value: unknown, raw = false): string {
  if (!raw) return JSON.stringify(value ?? null)
  try {
    return JSON.stringify(dehydrate({ value }).data.value ?? null)
  } catch {
    // Not storable: never equal, so the child gets it (and its own dehydrate names the problem).
    return '\u0000'
  }
}

/** The values a parent rendered in this request passed, where they differ from the snapshot's. */
async function takePassed(
  c: ComponentContext,
  memo: ServerMemo,
  passed: NonNullable<ReturnType<typeof passedTo>>,
  bindings: BindingMemo | undefined,
): Promise<void> {
  for (const name of reactivePropsOf(c.Class))
    if (Object.prototype.hasOwnProperty.call(passed.params, name) && moved(passed.params[name], memo.data[name])) await assign(c, name, passed.params[name])
  if (bindings && passed.binding?.outer === bindings.outer && moved(passed.binding.value, memo.data[bindings.inner]))
    await assign(c, bindings.inner, passed.binding.value)
  c.set(ORIGINALS, snapshotOf(c))
}

/** The reactive properties' current values, as the snapshot would store them. */
function snapshotOf(c: ComponentContext): Record<string, string> {
  const self = c.component as unknown as Record<string, unknown>
  const out: Record<string, string> = {}
  for (const name of reactivePropsOf(c.Class)) out[name] = fingerprint(self[name], true)
  return out
}

/**
 * Sets a passed value as mount does (server objects as they are, other
 * values brought to the property's type), with the update hooks around it
 * as for a change from the browser: `updating`/`updating<Name>` see the old
 * value, `updated`/`updated<Name>` the new one.
 */
async function assign(c: ComponentContext, name: string, value: unknown): Promise<void> {
  const self = c.component as unknown as Record<string, unknown>
  let next: unknown = value
  if (!serverObject(value)) {
    next = await coerce(self[name], copy(value), name, { app: c.services.app, ctx: c.run.ctx }).catch(() => copy(value))
  }
  const suffix = `${name[0]!.toUpperCase()}${name.slice(1)}`
  await c.component.updating?.(name, next)
  await propertyHook(self, `updating${suffix}`, next)
  self[name] = next
  await c.component.updated?.(name, next)
  await propertyHook(self, `updated${suffix}`, next)
}

/** `updatedTodos(value)` and the like, when the component has one. */
async function propertyHook(self: Record<string, unknown>, hook: string, value: unknown): Promise<void> {
  if (typeof self[hook] === 'function') await (self[hook] as (value: unknown) => unknown).call(self, value)
}

/** A plain value copied, so the child never shares an object with its parent. */
function copy<T>(value: T): T {
  if (value === null || typeof value !== 'object' || serverObject(value)) return value
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

/** A class instance (a model, a date, a file) or a list of them: only server code can pass one. */
function serverObject(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(serverObject)
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto !== Object.prototype && proto !== null
}

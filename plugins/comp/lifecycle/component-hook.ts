import { isPromiseLike, KilnError } from '../../../core/index.ts'
import type { Application, HttpContext, ViewManager } from '../../../core/index.ts'
import type { Checksums } from '../protocol/checksum.ts'
import type { CompConfig } from '../comp-config.ts'
import type { Component, ComponentRun } from '../component.ts'
import type { ComponentClass } from '../registry/registry.ts'
import type { RenderScope } from '../rendering/render.ts'
import type { ServerMemo } from '../protocol/snapshot.ts'
import type { SessionBinding } from '../protocol/session-binding.ts'
import type { UpdatePayload } from '../protocol/update-payload.ts'

/** The incoming side of an update: the checked body and its memo. */
export interface UpdateRequest {
  payload: UpdatePayload
  memo: ServerMemo
}

/**
 * One component's trip through a request, as the lifecycle and the
 * features' hooks see it: the component, what it renders into, and what
 * the answer and the next snapshot will carry besides the state. Features
 * add to `effects` and `memo` (Livewire's `ComponentContext`), and keep
 * their own per-trip values with `get` / `set`.
 *
 * @example
 * ```ts
 * const hook: ComponentHook = { name: 'redirects', dehydrate: (c) => { if (c.run.redirect) c.effects.redirect = c.run.redirect } }
 * ```
 */
export class ComponentContext {
  /** Added to the update's answer (`upload`, `redirect`, `js`, `islands`…). */
  readonly effects: Record<string, unknown> = {}
  /** Added to the next snapshot's memo (`listeners`, `js`, `lazy`…). Empty values are left out. */
  readonly memo: Record<string, unknown> = {}
  /** The dehydrated state, once the lifecycle has it (for `dehydrate` hooks). */
  data: Record<string, unknown> = {}
  /** What a hook renders instead of the component on a first render (a lazy placeholder). */
  placeholder?: string
  /** Set by a hook: the component's own `hydrate()` and `booted()` do not run this time. */
  skipHydrate = false
  /** Set by a hook: nothing renders this time. */
  skipRender = false
  /** Set by a hook: render even though the browser asked for none (`.renderless`), as a refused upload shows its message. */
  renderAnyway = false
  private readonly values = new Map<symbol, unknown>()

  constructor(
    readonly services: CompServices,
    readonly component: Component,
    readonly Class: ComponentClass,
    readonly run: ComponentRun,
    readonly scope: RenderScope,
    /** Present on an update, absent on a first render. */
    readonly request?: UpdateRequest,
    private readonly actions: ContextActions = {},
  ) {}

  /** True on a first render (mount), false on an update. @example `if (c.mounting) readTheQueryString()` */
  get mounting(): boolean {
    return this.request === undefined
  }

  /** The component's name. @example `c.name // 'counter'` */
  get name(): string {
    return this.run.name
  }

  /** A feature's value for this trip. @example `c.get<PendingMount>(LAZY)` */
  get<T>(key: symbol): T | undefined {
    return this.values.get(key) as T | undefined
  }

  /** Keeps a feature's value for this trip. @example `c.set(LAZY, pending)` */
  set(key: symbol, value: unknown): void {
    this.values.set(key, value)
  }

  /** Mount-time steps with these parameters (a lazy component loading). @example `await c.boot(params)` */
  boot(params: Record<string, unknown>): Promise<void> {
    if (!this.actions.boot) throw new KilnError(`${this.Class.name} cannot boot here.`, { code: 'E_COMP_OUTSIDE_LIFECYCLE' })
    return this.actions.boot(params)
  }

  /** Applies one update from the browser, with every check an update gets. @example `await c.update('count', 5)` */
  update(path: string, value: unknown): Promise<void> {
    if (!this.actions.update) throw new KilnError(`${this.Class.name} takes no updates here.`, { code: 'E_COMP_OUTSIDE_LIFECYCLE' })
    return this.actions.update(path, value)
  }
}

/** What the lifecycle lends a context: booting and updating run its own steps. */
export interface ContextActions {
  boot?: (params: Record<string, unknown>) => Promise<void>
  update?: (path: string, value: unknown) => Promise<void>
}

/**
 * What a feature adds to the component lifecycle (Livewire's
 * `ComponentHook`). Every hook is optional; features are listed once, in
 * `features/index.ts`, and run in that order.
 *
 * @example
 * ```ts
 * export const redirects: ComponentHook = {
 *   name: 'redirects',
 *   dehydrate(c) { if (c.run.redirect) c.effects.redirect = c.run.redirect },
 * }
 * ```
 */
export interface ComponentHook {
  readonly name: string
  /**
   * First render, before the component's `mount()`; setting `c.placeholder` renders that instead (and skips mounting).
   * `params` is the hooks' own copy: a hook may delete the parameters meant for it (`lazy`), and the component mounts without them.
   */
  mount?(c: ComponentContext, params: Record<string, unknown>): void | Promise<void>
  /** After the component's `mount()`, before `booted()` (first render, or a lazy component loading). */
  mounted?(c: ComponentContext): void | Promise<void>
  /** An update, once the state is restored, before the component's `hydrate()`. */
  hydrate?(c: ComponentContext, memo: ServerMemo): void | Promise<void>
  /** Before each update from the browser (an update, `$set`, `$toggle`) is applied: throw to refuse it. */
  update?(c: ComponentContext, path: string, value: unknown): void | Promise<void>
  /** Calls this feature answers (`$upload`, `$event`), by name, with the browser's parameters. */
  readonly calls?: Readonly<Record<string, (c: ComponentContext, params: unknown[]) => void | Promise<void>>>
  /** An update's render; return true when the hook rendered on its own (an island) and the whole component must not. */
  render?(c: ComponentContext): boolean | void | Promise<boolean | void>
  /** Before the snapshot is signed: add to `c.effects` and `c.memo`. */
  dehydrate?(c: ComponentContext): void | Promise<void>
}

/**
 * What the lifecycle and the features need of the components plugin: its
 * config, keys and stores, the registered features, and how to make a
 * component. `ComponentManager` is the one implementation; features take
 * this interface, never the manager, so no feature imports the code that
 * runs it.
 *
 * @example
 * ```ts
 * function startUpload(services: CompServices, c: ComponentContext) { services.config.uploads.max_kb }
 * ```
 */
export interface CompServices {
  readonly app: Application
  readonly config: CompConfig
  readonly views: ViewManager
  readonly checksums: Checksums
  /** Ties snapshots and addresses to the session they were issued in. */
  readonly binding: SessionBinding
  /** Every feature's hooks, in the order they run (`features/index.ts`); usable once `ready()` has settled. */
  readonly features: readonly ComponentHook[]
  /** Undefined once the features' hooks are loaded, else the promise of their loading (they load on first use). */
  ready(): Promise<void> | undefined
  /** A class and its name, from either (404 for an unknown name). */
  resolve(target: string | ComponentClass): { Class: ComponentClass; name: string }
  /** A fresh instance, through the container, with its run attached. */
  instantiate(Class: ComponentClass, run: ComponentRun): Component
  /** A new run for a component of this request. */
  newRun(name: string, ctx?: HttpContext, id?: string): ComponentRun
}

/** The hooks that features run on every trip, each with the arguments after the context. */
type StepHooks = {
  mount: [params: Record<string, unknown>]
  mounted: []
  hydrate: [memo: ServerMemo]
  update: [path: string, value: unknown]
  dehydrate: []
}

/**
 * Runs one hook of every feature that has it, in the features' order,
 * waiting for each hook that returns a promise. Most features have no
 * hook for most steps and most hooks are synchronous, so this makes no
 * promise unless a hook does: with some thirty features, awaiting each
 * (absent) hook cost ninety promises per update, each with an
 * AsyncLocalStorage hook on Node 20.
 *
 * @example
 * ```ts
 * const pending = runFeatureHooks(services.features, 'dehydrate', c)
 * if (pending) await pending
 * ```
 */
export function runFeatureHooks<K extends keyof StepHooks>(
  features: readonly ComponentHook[],
  step: K,
  c: ComponentContext,
  ...args: StepHooks[K]
): Promise<void> | undefined {
  return runFrom(withHook(features, step), 0, step, c, args)
}

type Step = keyof StepHooks | 'render'

// Per feature list (one per process), the features that have each hook: an update walks the few that do, not all of them.
const WITH_HOOK = new WeakMap<readonly ComponentHook[], Partial<Record<Step, readonly ComponentHook[]>>>()

/**
 * The features that have a hook for `step`, in their order; worked out once per feature list.
 *
 * @example
 * ```ts
 * for (const feature of withHook(services.features, 'render')) feature.render!(c)
 * ```
 */
export function withHook(features: readonly ComponentHook[], step: Step): readonly ComponentHook[] {
  let steps = WITH_HOOK.get(features)
  if (!steps) WITH_HOOK.set(features, (steps = {}))
  return (steps[step] ??= features.filter((feature) => typeof feature[step] === 'function'))
}

function runFrom<K extends keyof StepHooks>(
  features: readonly ComponentHook[],
  from: number,
  step: K,
  c: ComponentContext,
  args: StepHooks[K],
): Promise<void> | undefined {
  for (let i = from; i < features.length; i++) {
    const hook = features[i]![step] as (c: ComponentContext, ...args: StepHooks[K]) => unknown
    const result = hook.call(features[i], c, ...args)
    if (isPromiseLike(result)) return Promise.resolve(result).then(() => runFrom(features, i + 1, step, c, args))
  }
  return undefined
}

import { randomBytes } from 'node:crypto'
import Handlebars from 'handlebars'
import { HttpException, KilnError, type Application, type HttpContext, type ViewManager } from '../../core/index.ts'
import type { Checksums } from './protocol/checksum.ts'
import { attachRun, type Component, type ComponentRun } from './component.ts'
import type { CompConfig } from './comp-config.ts'
import { escapeAttribute } from './rendering/html-root.ts'
import type { CompServices } from './lifecycle/component-hook.ts'
import type { ComponentHook } from './lifecycle/component-hook.ts'
import { mountComponent, type Mounted } from './lifecycle/mount.ts'
import type { ComponentClass, ComponentRegistry } from './registry/registry.ts'
import type { RenderScope } from './rendering/render.ts'
import type { ChildRecord } from './protocol/snapshot.ts'
import type { SessionBinding } from './protocol/session-binding.ts'

export { RENDERED_COMPONENTS, type Mounted } from './lifecycle/mount.ts'

/**
 * What a nested component's tag carries for a feature (a parent's
 * `wire:model` on it): `params` are what is left for the child to mount
 * with; `reused` runs when the child rendered before (it keeps its state),
 * `mounted` may change a new child's HTML.
 */
export interface ChildTag {
  params: Record<string, unknown>
  reused?(ctx: HttpContext | undefined, id: string): void
  mounted?(html: string, name: string): string
}

/**
 * Where the `{{comp}}` view helper marks the parameters of a tag in a view
 * (not a mount from code or a route): a symbol, so no parameter can be
 * named by it. Features read it: the attributes of a tag, a block tag's
 * body (slots).
 *
 * @example
 * ```ts
 * const tag = params[VIEW_TAG] as ViewTag | undefined
 * if (tag?.block) renderSlots(tag.block)
 * ```
 */
export const VIEW_TAG = Symbol.for('kiln.comp.view-tag')

/** What `VIEW_TAG` holds: the body of a block tag `{{#comp "card"}}…{{/comp}}`, when it is one. */
export interface ViewTag {
  block?: ChildBlock
}

/**
 * The body of a block tag `{{#comp "card"}}…{{/comp}}`, for a feature to
 * render (slots): with the parent view's context, and `data` as the
 * Handlebars data frame (the tag's own when none is given).
 */
export interface ChildBlock {
  render(data?: Record<string, unknown>): string
  /** The tag's data frame (`@root`, `@index`…), to make a frame from. */
  readonly data: Record<string, unknown> | undefined
}

/** Reads a nested component's tag in a parent's view for a feature. */
export type ChildTags = (parent: RenderScope, params: Record<string, unknown>) => ChildTag

const childTagSteps: ChildTags[] = []

/**
 * Lets a feature read nested components' tags (the props feature: a
 * parent's `wire:model` on a child, and the values a child takes again).
 *
 * @example
 * ```ts
 * addChildTags((parent, params) => ({ params }))
 * ```
 */
export function addChildTags(step: ChildTags): void {
  if (!childTagSteps.includes(step)) childTagSteps.push(step)
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])

/**
 * The components plugin's services (`CompServices`): the registry, config,
 * keys and stores, and the features; it makes component instances, mounts
 * them (`lifecycle/mount.ts`) and renders nested ones (`embed`).
 *
 * @example
 * ```ts
 * const { html } = await manager.mount('counter', { start: 5 }, { ctx })
 * ```
 */
export class ComponentManager implements CompServices {
  #features: readonly ComponentHook[] | undefined
  #loading: Promise<void> | undefined

  constructor(
    readonly app: Application,
    readonly registry: ComponentRegistry,
    readonly config: CompConfig,
    readonly checksums: Checksums,
    /** Ties snapshots and addresses to the session they were issued in. */
    readonly binding: SessionBinding,
    /** Loads every feature's hooks, in the order they run: on the first mount or update, not at boot. */
    private readonly loadFeatures: () => Promise<readonly ComponentHook[]>,
  ) {}

  /** Every feature's hooks, in the order they run; loaded by `ready()`, which every mount and update waits for. */
  get features(): readonly ComponentHook[] {
    if (this.#features) return this.#features
    throw new KilnError('The component features are used before they loaded.', { code: 'E_COMP_FEATURES_NOT_READY', hint: 'Await manager.ready() first.' })
  }

  /**
   * Undefined once the features' hooks are loaded; until then the promise
   * of their loading (the first mount or update of the process waits for
   * it, later ones make no promise).
   *
   * @example
   * ```ts
   * const pending = manager.ready()
   * if (pending) await pending
   * ```
   */
  ready(): Promise<void> | undefined {
    if (this.#features) return undefined
    return (this.#loading ??= this.loadFeatures().then(
      (features) => {
        this.#features = features
      },
      (error: unknown) => {
        this.#loading = undefined
        throw error
      },
    ))
  }

  get views(): ViewManager {
    return this.app.views
  }

  /** A class and its name, from either. @example `manager.resolve('counter')` */
  resolve(target: string | ComponentClass): { Class: ComponentClass; name: string } {
    if (typeof target === 'string') {
      const Class = this.registry.get(target)
      if (!Class) throw new HttpException(404, `No component is named "${target.slice(0, 100)}".`)
      return { Class, name: target }
    }
    return { Class: target, name: this.registry.nameOf(target) }
  }

  /** A fresh instance (through the container, so constructors may `@inject`) with its request run. @internal */
  instantiate(Class: ComponentClass, run: ComponentRun): Component {
    const component = this.app.container.resolve(Class as unknown as new () => Component)
    attachRun(component, run)
    return component
  }

  /** A new run for a component of this request. @internal */
  newRun(name: string, ctx?: HttpContext, id = randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')): ComponentRun {
    return { id, name, ctx, errors: {}, dispatches: [], js: [], skipRender: false }
  }

  /**
   * First render of a component (see `mountComponent`): mount (or a
   * placeholder for lazy and deferred ones), render, and the root element's
   * `wire:id`, `wire:name` and `wire:snapshot`.
   *
   * @example
   * ```ts
   * const { html } = await manager.mount(Counter, { start: 3 }, { ctx })
   * ```
   */
  mount(target: string | ComponentClass, params: Record<string, unknown> = {}, options: { ctx?: HttpContext } = {}): Promise<Mounted> {
    const pending = this.ready()
    if (pending) return pending.then(() => mountComponent(this, target, params, options.ctx))
    return mountComponent(this, target, params, options.ctx)
  }

  /**
   * A component inside a view: a page's view, or another component's (then
   * it is that component's child, by `key` or by position). A child the
   * parent rendered before is left to itself: the parent's new HTML holds an
   * empty element with its `wire:id`, which the browser keeps as it is.
   *
   * @example
   * ```ts
   * await manager.embed('todo-item', { todo, key: todo.id }, parentScope)
   * ```
   */
  async embed(name: string, params: Record<string, unknown>, parent: RenderScope | undefined, ctx: HttpContext | undefined): Promise<Handlebars.SafeString> {
    const { key: given, ...rest } = params
    if (!parent) return new Handlebars.SafeString((await this.mount(name, rest, { ctx })).html)
    const key = given === undefined || given === null ? `${parent.id}-${parent.counter++}` : String(given)
    // What the tag carries for features (a parent's wire:model on it is a binding, not a parameter: features/props).
    const tags: ChildTag[] = []
    let own = rest
    for (const step of childTagSteps) {
      const tag = step(parent, own)
      tags.push(tag)
      own = tag.params
    }
    const previous = parent.previous[key]
    if (previous && previous.name === name) {
      parent.children[key] = previous
      // Reactive and bound properties of a child in this same request take what this render passed.
      for (const tag of tags) tag.reused?.(ctx, previous.id)
      const open = `<${previous.tag} wire:id="${escapeAttribute(previous.id)}">`
      return new Handlebars.SafeString(VOID.has(previous.tag.toLowerCase()) ? open : `${open}</${previous.tag}>`)
    }
    const mounted = await this.mount(name, own, { ctx })
    parent.children[key] = { id: mounted.id, name: mounted.name, tag: mounted.tag } satisfies ChildRecord
    let html = mounted.html
    for (const tag of tags) if (tag.mounted) html = tag.mounted(html, name)
    return new Handlebars.SafeString(html)
  }
}

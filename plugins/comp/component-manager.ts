import { randomBytes } from 'node:crypto'
import Handlebars from 'handlebars'
import { HttpException, type Application, type HttpContext, type ViewManager } from '../../core/index.ts'
import type { Checksums } from './checksum.ts'
import { collectStatic, metaOf } from './class-meta.ts'
import { attachRun, runOf, type Component, type ComponentRun } from './component.ts'
import type { CompConfig } from './comp-config.ts'
import { escapeAttribute, withRootAttributes } from './html-root.ts'
import type { ComponentClass, ComponentRegistry } from './registry.ts'
import { placeholder, renderComponentView, type RenderScope } from './render.ts'
import { compactMemo, type ChildRecord, type PendingMount, type ServerMemo, type Snapshot } from './snapshot.ts'
import { dehydrate, hydrate, publicProperties } from './state.ts'
import { coerce } from './updates.ts'
import type { UploadStore } from './uploads/upload-store.ts'
import type { SessionBinding } from './session-binding.ts'

/** Set on a request that rendered a component, for asset injection. */
export const RENDERED_COMPONENTS = Symbol.for('kiln.comp.rendered')

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])

/** A component rendered into a page. */
export interface Mounted {
  html: string
  id: string
  name: string
  tag: string
}

/**
 * Builds components and their snapshots: first renders (`mount`), nested
 * components inside a render (`embed`), and the pieces an update reuses
 * (instantiate, boot, snapshot).
 *
 * @example
 * ```ts
 * const { html } = await manager.mount('counter', { start: 5 }, { ctx })
 * ```
 */
export class ComponentManager {
  private readonly defaults = new WeakMap<ComponentClass, Record<string, unknown>>()

  constructor(
    readonly app: Application,
    readonly registry: ComponentRegistry,
    readonly config: CompConfig,
    readonly checksums: Checksums,
    readonly uploads: UploadStore,
    /** Ties snapshots and addresses to the session they were issued in. */
    readonly binding: SessionBinding,
  ) {}

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
   * First render of a component: mount (or a placeholder for lazy and
   * deferred ones), render, and the root element's `wire:id`, `wire:name`
   * and `wire:snapshot`.
   *
   * @example
   * ```ts
   * const { html } = await manager.mount(Counter, { start: 3 }, { ctx })
   * ```
   */
  async mount(target: string | ComponentClass, params: Record<string, unknown> = {}, options: { ctx?: HttpContext } = {}): Promise<Mounted> {
    const { Class, name } = this.resolve(target)
    const run = this.newRun(name, options.ctx)
    const component = this.instantiate(Class, run)
    const scope: RenderScope = { component, Class, id: run.id, ctx: options.ctx, previous: {}, children: {}, counter: 0 }
    let html: string
    let lazy: PendingMount | undefined
    if (Class.lazy || Class.defer) {
      const { data, types } = dehydrate(params, name)
      lazy = { mode: Class.defer ? 'defer' : 'lazy', params: data, types }
      html = await placeholder(this.views, scope)
    } else {
      await this.boot(component, Class, params, options.ctx?.request.query())
      html = await renderComponentView(this.views, scope, name)
    }
    const snapshot = await this.snapshot(component, Class, run, scope.children, lazy)
    const rooted = withRootAttributes(html, name, { 'wire:id': run.id, 'wire:name': name, 'wire:snapshot': JSON.stringify(snapshot) })
    options.ctx?.locals.set(RENDERED_COMPONENTS, true)
    return { html: rooted.html, id: run.id, name, tag: rooted.tag }
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
    const previous = parent.previous[key]
    if (previous && previous.name === name) {
      parent.children[key] = previous
      const open = `<${previous.tag} wire:id="${escapeAttribute(previous.id)}">`
      return new Handlebars.SafeString(VOID.has(previous.tag.toLowerCase()) ? open : `${open}</${previous.tag}>`)
    }
    const mounted = await this.mount(name, rest, { ctx })
    parent.children[key] = { id: mounted.id, name: mounted.name, tag: mounted.tag } satisfies ChildRecord
    return new Handlebars.SafeString(mounted.html)
  }

  /**
   * Mount-time steps: parameters named like public properties are assigned
   * (in the property's type), `mount(params)` runs, then values from the
   * query string for `queryString` properties, then `booted()`.
   *
   * @internal also used when a lazy component loads.
   */
  async boot(component: Component, Class: ComponentClass, params: Record<string, unknown>, query: Record<string, string | string[]> = {}): Promise<void> {
    const self = component as unknown as Record<string, unknown>
    const sessionTag = this.binding.tag(runOf(component).ctx)
    const open = (reference: string) => this.uploads.open(reference, sessionTag)
    const properties = new Set(publicProperties(component))
    const { kinds } = metaOf(Class)
    for (const [key, value] of Object.entries(params)) {
      if (!properties.has(key)) continue
      // Server code passes models, dates and files as they are; text (from a URL, a view) is brought to the property's type.
      if (serverObject(value)) self[key] = value
      else self[key] = await coerce(self[key], value, key, { openUpload: open }, kinds.get(key)).catch(() => self[key])
    }
    await component.mount?.(params)
    for (const property of collectStatic<string[]>(Class, 'queryString')) {
      const value = query[property]
      if (value === undefined || !publicProperties(component).includes(property)) continue
      // A value edited by hand in the URL that does not fit the property is ignored, not an error.
      self[property] = await coerce(self[property], value, property, { openUpload: open }, kinds.get(property) ?? 'undeclared').catch(() => self[property])
    }
    await component.booted?.()
  }

  /**
   * The snapshot after `dehydrate()`: state, errors, typed values, children,
   * listeners, client-side actions, a pending mount, and the checksum.
   *
   * @internal
   */
  async snapshot(component: Component, Class: ComponentClass, run: ComponentRun, children: Record<string, ChildRecord>, lazy?: PendingMount): Promise<Snapshot> {
    await component.dehydrate?.()
    const { data, types } = dehydrate(component.state(), run.name)
    const meta = metaOf(Class)
    const js: Record<string, string> = {}
    for (const name of meta.js) js[name] = String(await (component as unknown as Record<string, () => unknown>)[name]!())
    const session = this.binding.tag(run.ctx)
    const expires = Math.ceil(Date.now() + this.config.snapshot_ttl_minutes * 60_000)
    const memo = compactMemo({ data, errors: run.errors, session, expires, types, children, listeners: [...meta.listeners.keys()], js, lazy })
    const fingerprint = { id: run.id, name: run.name }
    return { fingerprint, serverMemo: { ...memo, checksum: this.checksums.sign(fingerprint, memo) } as ServerMemo }
  }

  /**
   * The values of `queryString` properties for the URL: null where the value
   * is the property's initial one (the browser then drops it from the URL).
   *
   * @internal
   */
  queryString(component: Component, Class: ComponentClass, data: Record<string, unknown>): Record<string, unknown> | undefined {
    const properties = collectStatic<string[]>(Class, 'queryString')
    if (properties.length === 0) return undefined
    let defaults = this.defaults.get(Class)
    if (!defaults) {
      const fresh = new (Class as unknown as new () => Component)()
      defaults = dehydrate(fresh.state(), 'defaults').data
      this.defaults.set(Class, defaults)
    }
    const out: Record<string, unknown> = {}
    for (const property of properties) {
      if (!(property in data)) continue
      out[property] = JSON.stringify(data[property]) === JSON.stringify(defaults[property]) ? null : data[property]
    }
    return out
  }
}

/** A class instance (a model, a date, a file) or a list of them: only server code can pass one. */
function serverObject(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(serverObject)
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto !== Object.prototype && proto !== null
}

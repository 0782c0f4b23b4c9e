import { KilnError } from '../../core/index.ts'
import type { z } from 'zod'
import type { HttpContext, ViewResponse } from '../../core/index.ts'
import { runOf, type Dispatch } from './component-run.ts'
import { streamChunk } from './pipeline/streamed-update.ts'
import { publicProperties } from './state/state.ts'

export { attachRun, runOf, ValidationStop, type ComponentRun, type Dispatch } from './component-run.ts'

/**
 * A server-driven component: its public fields are its state (kept in the
 * page, checksummed, sent back with each action), its public methods are
 * actions the browser may call, and its view renders it.
 *
 * Hooks, in order: `mount(params)` (first render only), `hydrate()` (every
 * later request, after the state is restored), `booted()`, then updates and
 * calls, `rendering()`, the render, `rendered(html)`, and `dehydrate()`
 * before the state is written back.
 *
 * @example
 * ```ts
 * export default class Counter extends Component {
 *   count = 0
 *   increment() { this.count++ }
 *   render() { return '<button wire:click="increment">{{count}}</button>' }
 * }
 * ```
 */
export abstract class Component {
  /** Properties kept in the URL query string (read from it on first render). */
  static queryString?: string[]
  /** The zod schema `validate()` checks the public state with. */
  static rules?: z.ZodType
  /** Render a placeholder first; load when scrolled into view. */
  static lazy?: boolean
  /** Render a placeholder first; load right after the page has painted. */
  static defer?: boolean
  /** The view shown until a lazy or deferred component loads, when it has no `placeholder()` method (else an empty element). */
  static lazyPlaceholder?: string
  /** Named parts of the view that can render and update on their own: island name → view name. */
  static islandViews?: Record<string, string>
  /** The layout of this component as a full page (`Route.comp`). */
  static layout?: string
  /** The page title of this component as a full page. */
  static title?: string

  /** This instance's id in the page. @example `this.getId()` */
  getId(): string {
    return runOf(this).id
  }

  /** The component's name (`counter`, `admin.user-table`). @example `this.getName()` */
  getName(): string {
    return runOf(this).name
  }

  /** The request being served. @example `this.ctx.request.user()` */
  // Public, not protected: mixins such as `WithPagination(Component)` export class types, which cannot name a protected member.
  get ctx(): HttpContext {
    const ctx = runOf(this).ctx
    if (!ctx) throw new KilnError(`${this.constructor.name} has no request here.`, { code: 'E_COMP_NO_REQUEST' })
    return ctx
  }

  /** A 403 unless the request's user may (the kernel's gate and policies). Never callable from the browser. @example `await this.authorize('update', todo)` */
  authorize(ability: string, ...args: unknown[]): Promise<void> {
    return this.ctx.authorize(ability, ...args)
  }

  /** Whether the request's user may (the kernel's gate and policies). @example `if (await this.can('delete', todo)) ...` */
  can(ability: string, ...args: unknown[]): Promise<boolean> {
    return this.ctx.can(ability, ...args)
  }

  /** Validation messages by field, shown as `errors` in the view and `$errors` in the browser. */
  get errors(): Record<string, string[]> {
    return runOf(this).errors
  }

  set errors(value: Record<string, string[]>) {
    runOf(this).errors = value
  }

  /** Adds a message to a field. @example `this.addError('email', 'Taken.')` */
  addError(field: string, message: string): void {
    this.errors = { ...this.errors, [field]: [...(this.errors[field] ?? []), message] }
  }

  /** Clears the errors of one field, or all. @example `this.resetErrorBag()` */
  resetErrorBag(field?: string): void {
    if (field === undefined) this.errors = {}
    else {
      const errors = { ...this.errors }
      delete errors[field]
      this.errors = errors
    }
  }

  /**
   * Sends an event to the page: `@on(name)` methods of the components there
   * (this one included) and browser listeners receive `data`.
   *
   * @example
   * ```ts
   * this.dispatch('todo-added', { id: todo.id })
   * this.dispatch('refresh').to('todo-stats')
   * ```
   */
  dispatch(name: string, data: Record<string, unknown> = {}): { to(component: string): void; self(): void } {
    const entry: Dispatch = { name, params: data }
    runOf(this).dispatches.push(entry)
    return {
      to: (component) => void (entry.to = component),
      self: () => void (entry.self = true),
    }
  }

  /**
   * Sends text to the page while the action is still running: the elements
   * with `wire:stream="<to>"` in this component show it, appended (or in
   * place of what they show, with `{ replace: true }`). The answer's render
   * follows at the end as usual.
   *
   * @example
   * ```ts
   * for await (const token of reply) this.stream('answer', token)
   * this.stream('status', 'Done', { replace: true })
   * ```
   */
  stream(to: string, content: string, options: { replace?: boolean } = {}): void {
    streamChunk(runOf(this), String(to), String(content), options.replace === true)
  }

  /** Skips this request's render: the page keeps its HTML (state and events still go back). @example `this.renderless()` */
  renderless(): void {
    runOf(this).skipRender = true
  }

  /** Runs JavaScript in the browser after this response (`$wire` is in scope). @example `this.js("alert('Saved')")` */
  js(code: string): void {
    runOf(this).js.push(code)
  }

  /** Sets public properties back to their initial values (all, or the named ones). @example `this.reset('title')` */
  reset(...names: Array<keyof this & string>): void {
    const fresh = new (this.constructor as new () => Record<string, unknown>)()
    const self = this as unknown as Record<string, unknown>
    for (const key of names.length > 0 ? names : publicProperties(this)) if (key in fresh) self[key] = fresh[key]
    for (const step of afterReset) step(this)
  }

  /** Assigns the given values to public properties of those names. @example `this.fill({ title: 'x' })` */
  fill(values: { [K in keyof this]?: unknown }): void {
    const known = new Set(publicProperties(this))
    for (const [key, value] of Object.entries(values)) if (known.has(key)) (this as unknown as Record<string, unknown>)[key] = value
  }

  /** The public state as plain values. @example `this.state()` */
  state(): Record<string, unknown> {
    const self = this as unknown as Record<string, unknown>
    return Object.fromEntries(publicProperties(this).map((key) => [key, self[key]]))
  }

  /** First create, with the parameters the page passed (those named like public properties are already assigned). */
  mount?(params: Record<string, unknown>): void | Promise<void>
  /** Every later request, after the state is restored. */
  hydrate?(): void | Promise<void>
  /** After mount or hydrate. */
  booted?(): void | Promise<void>
  /** Before a property is updated from the browser. */
  updating?(name: string, value: unknown): void | Promise<void>
  /** After a property was updated from the browser. */
  updated?(name: string, value: unknown): void | Promise<void>
  /** Before the render. */
  rendering?(): void | Promise<void>
  /** After the render, with the HTML. */
  rendered?(html: string): void | Promise<void>
  /** Before the state is written into the snapshot. */
  dehydrate?(): void | Promise<void>
  /** A view name, a template (a string starting with `<`), or `view(name, data)`; default: `static template`, else `components/<name>`. */
  render?(): string | ViewResponse | Promise<string | ViewResponse>
  /**
   * What a lazy or deferred component shows until it loads, given the parameters it will mount with: a view name, a
   * template (a string starting with `<`), or `view(name, data)`, as `render()` returns; default: `static lazyPlaceholder`,
   * else an empty `<div>`. It runs before `mount()`: the properties have their initial values.
   */
  placeholder?(params: Record<string, unknown>): string | ViewResponse | Promise<string | ViewResponse>
  /** Extra data for the view, worked out on every render: `with() { return { remaining: this.todos.filter((t) => !t.done).length } }`. */
  with?(): Record<string, unknown> | Promise<Record<string, unknown>>
}

const afterReset: Array<(component: Component) => void> = []

/**
 * Runs `step` after `reset()` set a component's properties back (form
 * objects are tied to the component again).
 *
 * @example
 * ```ts
 * addAfterReset((component) => bindForms(component))
 * ```
 */
export function addAfterReset(step: (component: Component) => void): void {
  if (!afterReset.includes(step)) afterReset.push(step)
}

/**
 * A mark every copy of Kiln puts on its `Component` (`Symbol.for`, so it is
 * the same key in each copy): discovery tells a class that extends another
 * installed copy's `Component` from a module that exports no component.
 */
export const COMPONENT_MARK = Symbol.for('kiln.comp.component')
Object.defineProperty(Component, COMPONENT_MARK, { value: true })

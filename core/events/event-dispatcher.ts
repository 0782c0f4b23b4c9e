import type { Application } from '../application/application.ts'
import { afterCommit } from '../database/transaction-context.ts'
import { CallQueuedListener } from './call-queued-listener.ts'
import { Event, type EventClass, type EventKey, type Listener } from './event.ts'
import { EventFake } from './event-fake.ts'
import { QueuedListeners } from './queued-listeners.ts'

/** Runs before listeners for every dispatched event; broadcasting hooks in here. */
export type DispatchHook = (event: Event) => unknown | Promise<unknown>

/**
 * One app's event dispatcher: listeners by class (and `'*'`), queued
 * listeners, dispatch hooks for plugins, after-commit events and fakes.
 *
 * @example
 * ```ts
 * const events = app.service('events')
 * events.listen(OrderShipped, (e) => audit(e))
 * events.addDispatchHook((e) => { if (shouldBroadcast(e)) queueBroadcast(e) })
 * ```
 */
export class EventDispatcher {
  private readonly listeners = new Map<EventKey, Listener[]>()
  private readonly hooks: DispatchHook[] = []
  private readonly queued = new QueuedListeners(Event)
  private faked?: EventFake

  constructor(private readonly app: Application) {}

  /**
   * A queued listener (`static queued = true`) is known by name from here
   * on, so a worker process that booted the app runs it without a dispatch
   * of its own.
   *
   * @example `events.listen(UserRegistered, SendWelcomeEmail)`
   */
  listen(event: EventKey, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    if (QueuedListeners.isQueued(listener)) this.queued.add(event, listener)
  }

  /**
   * The classes a queued listener's job names, as given to `listen()`.
   * Throws an `UnknownJobError` (code `E_UNKNOWN_JOB`) for a listener this
   * app was not given.
   *
   * @example
   * ```ts
   * const { Listener, EventClass } = events.queuedListener('SendShipmentEmail', 'OrderShipped', null)
   * ```
   */
  queuedListener(listener: string, event: string, on: string | null): ReturnType<QueuedListeners['find']> {
    return this.queued.find(listener, event, on)
  }

  /** True when the class has listeners. @example `events.hasListeners(OrderShipped)` */
  hasListeners(event: EventKey): boolean {
    return (this.listeners.get(event)?.length ?? 0) > 0
  }

  /**
   * True when dispatching an event of this class would reach something: a
   * listener of the class or of a parent class, a `'*'` listener, or a fake.
   * Dispatch hooks do not count: hot paths (the token guard) skip building
   * and dispatching events nobody observes, and such events never broadcast.
   *
   * @example
   * ```ts
   * if (events.isObserved(TokenAuthenticated)) await events.dispatch(new TokenAuthenticated(token))
   * ```
   */
  isObserved(event: EventClass): boolean {
    if (this.faked || this.hasListeners('*')) return true
    for (let c: object | null = event; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) if (this.hasListeners(c as EventClass)) return true
    return false
  }

  /** Adds a hook run for every event before its listeners. @example `events.addDispatchHook(fn)` */
  addDispatchHook(hook: DispatchHook): void {
    this.hooks.push(hook)
  }

  /**
   * Dispatches an event: hooks, then listeners in order. After-commit events
   * wait for the surrounding transaction; faked events are only recorded.
   *
   * @example
   * ```ts
   * await events.dispatch(new OrderShipped(order))
   * ```
   */
  async dispatch(event: Event): Promise<void> {
    if (this.faked?.intercepts(event)) {
      this.faked.dispatched.push(event)
      return
    }
    const Class = event.constructor as EventClass & { afterCommit?: boolean }
    if (Class.afterCommit) {
      afterCommit(() => this.run(event))
      return
    }
    await this.run(event)
  }

  /**
   * Runs the listeners of a model event (`'model.created: Post'`); resolves
   * to false when one returned false (which cancels a `-ing` event).
   *
   * @example
   * ```ts
   * events.listen('model.deleting: Post', (post) => post.locked ? false : undefined)
   * ```
   */
  async dispatchModelEvent(event: string, model: { modelClass?: { name: string; morphName?: string } }): Promise<boolean> {
    const name = model.modelClass?.morphName ?? model.modelClass?.name
    const listeners = this.listeners.get(`model.${event}: ${name}` as EventKey)
    if (!listeners || this.faked) return true
    for (const listener of listeners) if ((await (listener as (m: unknown) => unknown)(model)) === false) return false
    return true
  }

  /** @internal see Event.fake */
  fake(only?: EventClass[]): EventFake {
    this.faked = new EventFake(only)
    return this.faked
  }

  /** @internal see Event.restore */
  restore(): void {
    this.faked = undefined
  }

  private async run(event: Event): Promise<void> {
    for (const hook of this.hooks) await hook(event)
    const listeners = [...this.listenersFor(event), ...(this.listeners.get('*') ?? []).map((listener) => [listener, '*'] as const)]
    for (const [listener, on] of listeners) await this.call(listener, event, on)
  }

  /** The listeners of the event's class and its parents (parents' first), each with the class it was listened on. */
  private listenersFor(event: Event): Array<readonly [Listener, EventKey]> {
    const out: Array<readonly [Listener, EventKey]> = []
    for (let proto = Object.getPrototypeOf(event); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      const on = proto.constructor as EventClass
      out.unshift(...(this.listeners.get(on) ?? []).map((listener) => [listener, on] as const))
    }
    return out
  }

  private async call(listener: Listener, event: Event, on: EventKey): Promise<void> {
    if (QueuedListeners.isQueued(listener)) {
      this.queued.addEvent(event.constructor as EventClass)
      const data = Object.fromEntries(Object.entries(event))
      const through = on === event.constructor ? null : typeof on === 'function' ? on.name : on
      await this.app
        .service('queue')
        .push(new CallQueuedListener(listener.name, event.constructor.name, data, through), { queue: listener.queue, connection: listener.connection })
      return
    }
    if (!isClass(listener)) {
      await (listener as (e: Event) => unknown)(event)
      return
    }
    await this.app.container.resolve(listener as new (...args: any[]) => { handle(e: Event): unknown }).handle(event)
  }
}

function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn))
}

import type { BootConfig } from './alpine.ts'

/** A snapshot's memo as the browser keeps it. */
export interface Memo {
  data: Record<string, unknown>
  errors: Record<string, string[]>
  checksum: string
  listeners?: string[]
  js?: Record<string, string>
  lazy?: { mode: 'lazy' | 'defer' }
  children?: Record<string, { id: string; name: string; tag: string }>
  /** `@isolate()`: its requests always go alone. */
  isolate?: boolean
  /** `@async()` actions: each runs in a request of its own, in parallel. */
  async?: string[]
  [key: string]: unknown
}

/** Options of one call. */
export interface CallOptions {
  renderless?: boolean
  island?: string | null
  /** A poll: dropped while another request is in flight, cancelled by user actions. */
  poll?: boolean
  /** The element that triggered it: it gets `data-loading` while the request runs. */
  trigger?: Element
  /** `.async`: sent at once in a request of its own, beside any request in flight. */
  async?: boolean
}

/**
 * A component in the page as the client's modules use it; `CompComponent`
 * is the one implementation. Modules take this interface rather than the
 * class, so none of them imports the module that imports them.
 */
export interface PageComponent {
  readonly id: string
  readonly name: string
  el: HTMLElement
  memo: Memo
  /** The state bindings read: the server's, plus what the user changed since. */
  readonly data: Record<string, unknown>
  readonly errors: { bag: Record<string, string[]> }
  /** Loading and dirty state, reactive for `wire:loading` and `wire:dirty`. */
  readonly status: { loading: boolean; targets: string[]; dirty: Record<string, true> }
  readonly $wire: Record<string, unknown>
  readonly config: BootConfig
  /** A property's current value (dotted paths work). */
  get(path: string): unknown
  /** Changes a property at once; `live` also sends it. */
  set(path: string, value: unknown, live?: boolean): Promise<unknown>
  /** Queues a call; resolves with the answer that carried it, or what a feature makes of it (a `@json()` action's value). */
  call(method: string, params?: unknown[], options?: CallOptions): Promise<unknown>
  /** Sends what is queued now. */
  commit(): Promise<unknown>
}

import type { TypedPath } from '../state/state.ts'

/** A nested component as its parent remembers it: rendered once, then left to itself. */
export interface ChildRecord {
  id: string
  name: string
  /** The child's root tag, for its placeholder in the parent's later renders. */
  tag: string
}

/** A lazy or deferred component's mount, waiting for the browser to ask for it. */
export interface PendingMount {
  mode: 'lazy' | 'defer'
  params: Record<string, unknown>
  types: TypedPath[]
}

/** The memo half of a snapshot: state, errors, and what the next request needs to rebuild the component. */
export interface ServerMemo {
  data: Record<string, unknown>
  errors: Record<string, string[]>
  checksum: string
  /** The tag of the session the snapshot was issued in: it works in that session only. */
  session: string
  /** When the snapshot stops working (Unix milliseconds). */
  expires: number
  /** Where typed values (dates, models, files) are in `data`. */
  types?: TypedPath[]
  /** Nested components by key. */
  children?: Record<string, ChildRecord>
  /** Events the component listens for (`@on`), so the browser can route them. */
  listeners?: string[]
  /** Client-side actions (`@js`): name → JavaScript. */
  js?: Record<string, string>
  /** Its `@reactive()` properties: the browser sends the snapshot along with its parent's requests. */
  props?: string[]
  /** A parent's `wire:model` on it: the parent's property (`outer`), its own `@modelable()` one (`inner`). */
  bindings?: { outer: string; inner: string; modifiers: string[] }
  /** Set until a lazy or deferred component has loaded. */
  lazy?: PendingMount
}

/** What the root element carries as `wire:snapshot`, and what the browser sends back. */
export interface Snapshot {
  fingerprint: { id: string; name: string }
  serverMemo: ServerMemo
}

/** The parts of Alpine.js the client uses (Alpine is loaded beside comp.js, not bundled). */
export interface AlpineApi {
  version: string
  reactive<T extends object>(value: T): T
  effect(fn: () => void): unknown
  watch<T>(getter: () => T, callback: (value: T, old: T) => void): () => void
  release(effect: unknown): void
  raw<T>(value: T): T
  bind(el: Element, bindings: Record<string, unknown>): void
  addRootSelector(selector: () => string): void
  interceptInit(callback: (el: Element) => void): void
  skipDuringClone<F>(fn: F): F
  addScopeToNode(el: Element, data: object): () => void
  onAttributeRemoved(el: Element, name: string, callback: () => void): void
  onElRemoved(el: Element, callback: () => void): void
  magic(name: string, callback: (el: Element) => unknown): void
  plugin(plugin: (alpine: AlpineApi) => void): void
  morph(from: Element, to: string | Element, options: MorphOptions): void
  interceptor<T>(callback: (initial: T, get: () => T, set: (value: T) => void, path: string, key: string) => T): T
  entangle(outer: { get(): unknown; set(value: unknown): void }, inner: { get(): unknown; set(value: unknown): void }): () => void
  initTree(el: Element): void
  destroyTree(el: Element): void
  nextTick(fn?: () => void): Promise<void>
  evaluate(el: Element, expression: string, extras?: Record<string, unknown>): unknown
}

/** Options of Alpine's morph plugin. */
export interface MorphOptions {
  key?(el: Element): string | null | undefined
  updating?(from: Node, to: Node, childrenOnly: () => void, skip: () => void, skipChildren: () => void): void
  updated?(from: Node, to: Node): void
  removing?(el: Node, skip: () => void): void
  adding?(el: Node, skip: () => void): void
  added?(el: Node): void
  lookahead?: boolean
}

declare global {
  interface Window {
    Alpine?: AlpineApi
    __COMP__?: BootConfig
  }
}

/** What `@compScripts` gives the client. */
export interface BootConfig {
  base: string
  endpoint: string
  asset?: string
  reactive?: string
  csrf?: string
  coalesceMs?: number
  debug?: boolean
  cspSafe?: boolean
  /** Components one bundled request may carry (`limits.max_components`). */
  maxComponents?: number
  /** The largest update body the server takes (`limits.max_payload_bytes`): bundles are split below it. */
  maxPayloadBytes?: number
  /** The colour of the `wire:navigate` progress bar, or false for none. */
  progressBar?: string | false
  /** The realtime client (`@kiln/rt`) when the app serves it, loaded only for components with echo listeners. */
  rt?: string
}

/** The page's Alpine (it exists once `alpine:init` has fired). */
export function alpine(): AlpineApi {
  if (!window.Alpine) throw new Error('Alpine.js is not loaded.')
  return window.Alpine
}

/**
 * Adds Alpine directives to an element from code, before Alpine reads its
 * attributes (the client calls this while Alpine initialises the element).
 * They are kept on the element, so when a morph gives it new HTML, the copy
 * Alpine makes of the new version gets them too and the patch keeps the
 * text and attributes they produce.
 */
export function bindVirtual(el: Element, bindings: Record<string, unknown>): void {
  const holder = el as Element & { _x_virtualDirectives?: Record<string, unknown> }
  holder._x_virtualDirectives = { ...(holder._x_virtualDirectives ?? {}), ...bindings }
}

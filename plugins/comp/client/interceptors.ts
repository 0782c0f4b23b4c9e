import type { PageComponent } from './page-component.ts'
import { phases, subscribe, type Listener, type PhaseApi, type Phases } from './phases.ts'
import { interceptMessage } from './message-interceptors.ts'

export type { PhaseApi, Phases } from './phases.ts'

declare global {
  interface Window {
    /** Kiln's JavaScript API: `comp.hook(...)`, `comp.interceptRequest(...)`. */
    comp?: { hook?: typeof hook; interceptRequest?: typeof interceptRequest; [name: string]: unknown }
  }
}

/** A request about to go: interceptors may change `url`, `options.headers` and `payload`, or `cancel()` it. */
export interface OutgoingRequest {
  url: string
  options: RequestInit & { headers: Record<string, string> }
  /** The body, sent as JSON after the interceptors ran. */
  payload: object
  /** The components whose updates it carries. */
  components: PageComponent[]
  cancel(): void
}

type RequestInterceptor = (context: { request: OutgoingRequest } & PhaseApi) => void
const requestInterceptors: RequestInterceptor[] = []

/**
 * `comp.interceptRequest(callback)`: hears every update request of the page
 * (one request may carry several components). The callback gets the
 * request and `onSend`, `onCancel`, `onResponse`, `onSuccess`, `onError`
 * (with `preventDefault()` to skip Kiln's own error handling), `onFailure`
 * (network errors) and `onFinish`. Returns a function that removes it.
 *
 * @example
 * ```ts
 * comp.interceptRequest(({ request, onError }) => {
 *   request.options.headers['x-socket-id'] = socketId
 *   onError(({ response, preventDefault }) => response.status === 419 && preventDefault())
 * })
 * ```
 */
export function interceptRequest(callback: RequestInterceptor): () => void {
  return subscribe(requestInterceptors, callback)
}

/**
 * Runs the request interceptors for a request about to go.
 *
 * @example
 * ```ts
 * const hooks = interceptOutgoing(request); hooks.fire('send')
 * ```
 */
export function interceptOutgoing(request: OutgoingRequest): Phases {
  const set = phases()
  for (const callback of [...requestInterceptors]) callback({ request, ...set.api })
  return set
}

type LegacyCallback = (hook: {
  url: string
  options: OutgoingRequest['options']
  payload: object
  respond(callback: (value: { status: number; response: Response }) => void): void
  succeed(callback: (value: { status: number; json: unknown }) => void): void
  fail(callback: (value: { status: number; content: string | null; preventDefault(): void }) => void): void
}) => void

/**
 * `comp.hook('request', callback)`: the request hook of Livewire's
 * JavaScript API, on top of `interceptRequest`: `{ url, options, payload,
 * respond, succeed, fail }`. `comp.hook('commit', callback)`: each
 * component's part of a request, on top of the message interceptors:
 * `{ component, commit: { calls, updates }, respond, succeed, fail }`.
 * With `component` (`$wire.$hook`), only that component's requests or
 * parts are heard.
 *
 * @example
 * ```ts
 * comp.hook('request', ({ options, fail }) => {
 *   options.headers['x-tab'] = tabId
 *   fail(({ status, preventDefault }) => status === 503 && preventDefault())
 * })
 * ```
 */
export function hook(name: string, callback: LegacyCallback | CommitCallback, component?: PageComponent): () => void {
  if (name === 'commit') return commitHook(callback as CommitCallback, component)
  if (name !== 'request') throw new Error(`comp.hook: there is no "${name}" hook (hooks: request, commit).`)
  return interceptRequest(({ request, onResponse, onSuccess, onError, onFailure }) => {
    if (component && !request.components.includes(component)) return
    const respond: Listener[] = []
    const succeed: Listener[] = []
    const fail: Listener[] = []
    const { url, options, payload } = request
    ;(callback as LegacyCallback)({ url, options, payload, respond: (cb) => respond.push(cb), succeed: (cb) => succeed.push(cb), fail: (cb) => fail.push(cb) })
    onResponse(({ response }: { response: Response }) => respond.forEach((cb) => cb({ status: response.status, response })))
    onSuccess(({ response, json }: { response: Response; json: unknown }) => succeed.forEach((cb) => cb({ status: response.status, json })))
    onError(({ response, body, preventDefault }: { response: Response; body: string; preventDefault(): void }) =>
      fail.forEach((cb) => cb({ status: response.status, content: body, preventDefault })),
    )
    onFailure(() => fail.forEach((cb) => cb({ status: 503, content: null, preventDefault() {} })))
  })
}

type CommitCallback = (hook: {
  component: Record<string, unknown>
  commit: { calls: Array<{ method: string; params: unknown[] }>; updates: Record<string, unknown> }
  respond(callback: Listener): void
  succeed(callback: (value: { snapshot: unknown; effects: unknown }) => void): void
  fail(callback: Listener): void
}) => void

/** `comp.hook('commit', ...)`: Livewire's per-component hook, on top of the message interceptors. */
function commitHook(callback: CommitCallback, component?: PageComponent): () => void {
  return interceptMessage((context) => {
    const respond: Listener[] = []
    const succeed: Listener[] = []
    const fail: Listener[] = []
    const { message } = context
    const calls = message.actions.map(({ name, params }) => ({ method: name, params }))
    callback({
      component: message.component,
      commit: { calls, updates: message.updates },
      respond: (cb) => respond.push(cb),
      succeed: (cb) => succeed.push(cb),
      fail: (cb) => fail.push(cb),
    })
    context.onSuccess((response: { effects: unknown; serverMemo: unknown }) => {
      respond.forEach((cb) => cb(undefined))
      succeed.forEach((cb) => cb({ snapshot: response.serverMemo, effects: response.effects }))
    })
    const failed = () => {
      respond.forEach((cb) => cb(undefined))
      fail.forEach((cb) => cb(undefined))
    }
    context.onError(failed)
    context.onFailure(failed)
  }, component)
}

/** What an action interceptor learns about the action: it may `cancel()` it before it is sent. */
export interface InterceptedAction {
  name: string
  params: unknown[]
  component: Record<string, unknown>
  cancel(): void
}

type ActionInterceptor = (context: { action: InterceptedAction } & PhaseApi) => void
const actionInterceptors = new WeakMap<PageComponent, Array<{ action?: string; callback: ActionInterceptor }>>()
const everyAction: Array<{ action?: string; callback: ActionInterceptor }> = []

/**
 * `comp.interceptAction(callback)` or `comp.interceptAction('save', callback)`: `$wire.$intercept` for every
 * component of the page (`action.component` tells which). Returns a function that removes it.
 *
 * @example
 * ```ts
 * comp.interceptAction('delete', ({ action }) => confirm('Sure?') || action.cancel())
 * ```
 */
export function interceptEveryAction(action: string | ActionInterceptor, callback?: ActionInterceptor): () => void {
  const entry = typeof action === 'string' ? { action, callback: callback! } : { callback: action }
  if (typeof entry.callback !== 'function') throw new TypeError('interceptAction needs a callback.')
  return subscribe(everyAction, entry)
}

/**
 * `$wire.$intercept(callback)` or `$wire.$intercept('save', callback)`:
 * hears each action of this component (or only `save`). The callback gets
 * `action` (`name`, `params`, `component`, `cancel()`) and `onSend`,
 * `onCancel`, `onSuccess` (with the answer), `onError` (with
 * `preventDefault()`), `onFailure` and `onFinish`. Returns a function that
 * removes it.
 *
 * @example
 * ```ts
 * intercept(component, 'save', ({ onSend, onFinish }) => { onSend(() => busy(true)); onFinish(() => busy(false)) })
 * ```
 */
export function intercept(component: PageComponent, action: string | ActionInterceptor, callback?: ActionInterceptor): () => void {
  const entry = typeof action === 'string' ? { action, callback: callback! } : { callback: action }
  if (typeof entry.callback !== 'function') throw new TypeError('$intercept needs a callback.')
  const list = actionInterceptors.get(component) ?? []
  actionInterceptors.set(component, list)
  return subscribe(list, entry)
}

/**
 * Runs this component's action interceptors for one call; `cancelled` when one of them cancelled it.
 *
 * @example
 * ```ts
 * const hooks = interceptAction(component, 'save', []); if (hooks.cancelled) return
 * ```
 */
export function interceptAction(component: PageComponent, name: string, params: unknown[]): Phases & { cancelled: boolean } {
  const set = phases()
  const result = { fire: set.fire, cancelled: false }
  const action: InterceptedAction = { name, params, component: component.$wire, cancel: () => void (result.cancelled = true) }
  for (const entry of [...everyAction, ...(actionInterceptors.get(component) ?? [])])
    if (!entry.action || entry.action === name) entry.callback({ action, ...set.api })
  return result
}

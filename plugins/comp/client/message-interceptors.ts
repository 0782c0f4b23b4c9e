import type { PageComponent } from './page-component.ts'
import { phases, subscribe, type PhaseApi, type Phases } from './phases.ts'

/** One component's part of a request, as message interceptors see it. */
export interface InterceptedMessage {
  /** The component's `$wire`. */
  component: Record<string, unknown>
  /** The actions it carries (none for a property update alone). */
  actions: Array<{ name: string; params: unknown[] }>
  /** The property updates it carries, by path. */
  updates: Record<string, unknown>
}

type MessageInterceptor = (context: { message: InterceptedMessage } & PhaseApi) => void
const interceptors: Array<{ component?: PageComponent; action?: string; callback: MessageInterceptor }> = []

/**
 * `comp.interceptMessage(callback)`, and `$wire.$interceptMessage(callback)`
 * or `$wire.$interceptMessage('save', callback)` with a component: hears
 * each component's part of a request (of that component, or only when it
 * carries `save`). The callback gets `message` (`component`, `actions`,
 * `updates`) and `onSend`, `onSuccess` (with the answer), `onError` (the
 * server refused this component's part), `onFailure` (the request failed),
 * `onCancel` and `onFinish`. Returns a function that removes it.
 *
 * @example
 * ```ts
 * comp.interceptMessage(({ message, onSuccess }) => onSuccess(() => console.log(message.actions)))
 * ```
 */
export function interceptMessage(callback: MessageInterceptor, component?: PageComponent, action?: string): () => void {
  if (typeof callback !== 'function') throw new TypeError('interceptMessage needs a callback.')
  return subscribe(interceptors, { component, action, callback })
}

/**
 * Runs the message interceptors for one component's part of a request, as it is sent.
 *
 * @example
 * ```ts
 * const hooks = interceptOutgoingMessage(component, calls, updates); hooks.fire('send', { payload })
 * ```
 */
export function interceptOutgoingMessage(component: PageComponent, actions: InterceptedMessage['actions'], updates: Array<[string, unknown]>): Phases {
  const set = phases()
  const message: InterceptedMessage = { component: component.$wire, actions, updates: Object.fromEntries(updates) }
  for (const entry of [...interceptors]) {
    if (entry.component && entry.component !== component) continue
    if (entry.action && !actions.some((action) => action.name === entry.action)) continue
    entry.callback({ message, ...set.api })
  }
  return set
}

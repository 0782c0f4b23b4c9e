/** The moments of a request (or of one message or action in it) that interceptors hear. */
export const PHASES = ['send', 'cancel', 'response', 'success', 'error', 'failure', 'finish'] as const
export type Phase = (typeof PHASES)[number]
export type Listener = (value: any) => void

/** `onSend(cb)`, `onCancel(cb)`, `onResponse(cb)`, `onSuccess(cb)`, `onError(cb)`, `onFailure(cb)`, `onFinish(cb)`. */
export type PhaseApi = Record<`on${Capitalize<Phase>}`, (callback: Listener) => void>

/** What the code that runs a request tells its interceptors. */
export interface Phases {
  fire(phase: Phase, value?: unknown): void
}

/**
 * A fresh set of phase callbacks: the `on…` functions interceptors get, and how the caller fires them.
 *
 * @example
 * ```ts
 * const set = phases(); callback({ request, ...set.api }); set.fire('send')
 * ```
 */
export function phases(): Phases & { api: PhaseApi } {
  const registered = new Map<Phase, Listener[]>()
  const api = {} as Record<string, (callback: Listener) => void>
  for (const phase of PHASES)
    api[`on${phase[0]!.toUpperCase()}${phase.slice(1)}`] = (callback) => registered.set(phase, [...(registered.get(phase) ?? []), callback])
  return {
    api: api as PhaseApi,
    fire(phase, value) {
      // One interceptor's mistake must not stop the request or the others.
      for (const callback of registered.get(phase) ?? [])
        try {
          callback(value)
        } catch (error) {
          console.error(error)
        }
    },
  }
}

/**
 * Adds to a list, and gives back the function that takes it out again.
 *
 * @example
 * ```ts
 * const remove = subscribe(interceptors, callback)
 * ```
 */
export function subscribe<T>(list: T[], item: T): () => void {
  list.push(item)
  return () => void (list.includes(item) && list.splice(list.indexOf(item), 1))
}

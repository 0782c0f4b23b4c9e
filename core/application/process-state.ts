import { KilnError } from '../support/errors.ts'
import { definePlugin } from './define-plugin.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    /** What each part of the app keeps, and who else sees it: `kiln serve --workers` asks it. */
    processState: ProcessStates
  }
}

/**
 * Who sees a piece of state besides the process that holds it:
 * `process` (memory: nobody), `machine` (files under the app's folder: the
 * processes of this machine), `network` (Redis, a database server: every
 * machine that reaches it).
 *
 * @example
 * ```ts
 * const scope: StateScope = driver === 'redis' ? 'network' : 'process'
 * ```
 */
export type StateScope = 'process' | 'machine' | 'network'

/**
 * One piece of state the app keeps between requests, declared by the
 * provider or plugin that owns it.
 *
 * @example
 * ```ts
 * const sessions: ProcessState = {
 *   what: 'sessions, on the "memory" store',
 *   scope: 'process',
 *   setting: 'SESSION_DRIVER=redis or fs (config/session.ts `driver`)',
 * }
 * ```
 */
export interface ProcessState {
  /** What it is, as the app's developer knows it: `sessions, on the "memory" store`. */
  what: string
  scope: StateScope
  /** What to change so that every process shares it: `SESSION_DRIVER=redis or fs (config/session.ts \`driver\`)`. */
  setting: string
}

/**
 * The state the app's parts keep (sessions, caches, counters, sockets) and
 * who shares it. The kernel's providers and each plugin or driver declare
 * theirs at boot, beside the code that owns it, since the kernel cannot
 * know what a plugin keeps; `kiln serve --workers=N` refuses to start
 * several processes while any of it stays in one
 * (`app.service('processState')`).
 *
 * @example
 * ```ts
 * app.service('processState').declare({ what: 'the rate limits', scope: 'process', setting: 'config/http.ts `throttle_store`' })
 * app.service('processState').local() // what several processes would each keep apart
 * ```
 */
export class ProcessStates {
  private readonly states: ProcessState[] = []

  /** Records one piece of state. @example `states.declare({ what: 'the cache store', scope: 'machine', setting: '...' })` */
  declare(state: ProcessState): void {
    this.states.push(state)
  }

  /** Everything declared, in the order of declaration. @example `states.all().map((s) => s.what)` */
  all(): readonly ProcessState[] {
    return this.states
  }

  /** What only this process sees: wrong as soon as a second process serves the app. @example `states.local().length` */
  local(): ProcessState[] {
    return this.states.filter((state) => state.scope === 'process')
  }
}

/**
 * Who shares a store of a given unstorage driver: `memory` is this
 * process's, `fs` the machine's, anything else (Redis, a database, a
 * cloud store) is reached over the network.
 *
 * @example
 * ```ts
 * storeScope('fs') // 'machine'
 * ```
 */
export function storeScope(driver: string | undefined): StateScope {
  if (driver === 'memory') return 'process'
  if (driver === 'fs' || driver === 'fs-lite') return 'machine'
  return 'network'
}

/**
 * The refusal to run `processes` processes over state that each would keep
 * for itself: every piece named with its setting, in one message
 * (`E_STATE_NOT_SHARED`).
 *
 * @example
 * ```ts
 * const local = app.service('processState').local()
 * if (local.length) throw unsharedStateError(local, 2)
 * ```
 */
export function unsharedStateError(states: readonly ProcessState[], processes: number): KilnError {
  const lines = states.map((state) => `  - ${state.what}: ${state.setting}`)
  return new KilnError(
    [
      `With ${processes} processes, each would keep its own copy of what follows, and a request answered by one would not see what another did:`,
      ...lines,
      'Files (fs) are shared by the processes of one machine; Redis by every process that reaches it.',
    ].join('\n'),
    { code: 'E_STATE_NOT_SHARED' },
  )
}

/**
 * The kernel's first provider: the registry of process-local state, there before any provider or plugin registers.
 *
 * @example
 * ```ts
 * export const kernelProviders = [processStateProvider, loggingProvider, cliProvider]
 * ```
 */
export const processStateProvider = definePlugin({
  name: 'kiln:process-state',
  services: {
    processState: { make: () => new ProcessStates(), token: ProcessStates },
  },
})

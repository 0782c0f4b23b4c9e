import { alpine, type BootConfig } from './alpine.ts'
import { applyResponse } from './apply.ts'
import { callResult } from './call-results.ts'
import { getPath, setPath } from './literal.ts'
import { interceptAction, type Phases } from './interceptors.ts'
import { interceptOutgoingMessage } from './message-interceptors.ts'
import { showError } from './overlay.ts'
import { schedule, sendAlone, type Flight, type Message, type Outcome, type Queued } from './request-queue.ts'
import { RequestFailed, type UpdateRequest } from './transport.ts'
import { makeWire } from './wire.ts'
import type { CallOptions, Memo } from './page-component.ts'

export type { CallOptions, Memo } from './page-component.ts'

interface PendingCall {
  method: string
  params: unknown[]
  options: CallOptions
  /** With the answer, or what a feature makes of it (a `@json()` action's value). */
  resolve(value: unknown): void
  reject(error: unknown): void
  /** Its `$wire.$intercept` callbacks. */
  hooks: Phases
}

/**
 * One component in the page: its reactive state (what bindings and `$wire`
 * read), its memo (what the server needs back), and its queue. What the
 * page's components queue within `coalesce_ms` goes out as one request
 * (request-queue.ts); a user action made while this component's request is
 * in flight waits for it; a poll is dropped while a request is in flight,
 * and a user action cancels an in-flight poll. `.async` calls and
 * `@async()` actions go at once, alone; an `@isolate()` component's
 * requests always go alone.
 */
export class CompComponent implements Queued {
  readonly id: string
  readonly name: string
  memo: Memo
  /** The state bindings read: the server's, plus what the user changed since. */
  readonly data: Record<string, unknown>
  readonly errors: { bag: Record<string, string[]> }
  /** Loading and dirty state, reactive for `wire:loading` and `wire:dirty`. */
  readonly status: { loading: boolean; targets: string[]; dirty: Record<string, true> }
  readonly $wire: Record<string, unknown>
  private updates = new Map<string, unknown>()
  private calls: PendingCall[] = []
  private inFlight?: Flight

  constructor(
    public el: HTMLElement,
    readonly config: BootConfig,
  ) {
    const snapshot = JSON.parse(el.getAttribute('wire:snapshot') ?? '{}') as { fingerprint: { id: string; name: string }; serverMemo: Memo }
    this.id = snapshot.fingerprint.id
    this.name = snapshot.fingerprint.name
    this.memo = snapshot.serverMemo
    const Alpine = alpine()
    this.data = Alpine.reactive(structuredClone(this.memo.data))
    this.errors = Alpine.reactive({ bag: { ...this.memo.errors } })
    this.status = Alpine.reactive({ loading: false, targets: [] as string[], dirty: {} as Record<string, true> })
    this.$wire = makeWire(this)
    // The snapshot stays in memory; the attribute would only grow the DOM.
    el.removeAttribute('wire:snapshot')
  }

  /** A property's current value (dotted paths work). */
  get(path: string): unknown {
    return getPath(this.data, path)
  }

  /**
   * Changes a property in the browser at once; `live` also sends it (merged
   * with whatever else happens within `coalesce_ms`), else it goes with the
   * next request.
   */
  set(path: string, value: unknown, live = false): Promise<unknown> {
    setPath(this.data, path, value)
    this.updates.set(path, value)
    this.status.dirty[path] = true
    if (!live) return Promise.resolve(undefined)
    return this.call('$refresh', [], {})
  }

  /**
   * Queues a call; resolves with the answer that carried it, or what a feature makes of it (a `@json()` action's
   * value); undefined for a dropped poll or a cancelled call.
   */
  call(method: string, params: unknown[] = [], options: CallOptions = {}): Promise<unknown> {
    if (options.poll && (this.inFlight || this.calls.length > 0)) return Promise.resolve(undefined)
    const alone = !!options.async || !!this.memo.async?.includes(method)
    if (!alone && !options.poll && this.inFlight?.poll) this.inFlight.controller.abort()
    return new Promise((resolve, reject) => {
      const hooks = interceptAction(this, method, params)
      const call: PendingCall = { method, params, options, resolve, reject, hooks }
      if (hooks.cancelled) {
        hooks.fire('cancel')
        hooks.fire('finish')
        return resolve(undefined)
      }
      // `.async` / `@async()`: its own request, now, beside whatever is in flight.
      if (alone) return sendAlone(this.message([call], [], true))
      this.calls.push(call)
      schedule(this)
    })
  }

  /** Sends what is queued now, without waiting for `coalesce_ms`. */
  commit(): Promise<unknown> {
    return this.call('$refresh', [], {})
  }

  /** True while a request carrying this component is in flight. */
  get busy(): boolean {
    return !!this.inFlight
  }

  /** What is queued, as this component's part of the next request. */
  take(): Message | undefined {
    const calls = this.calls.splice(0)
    const updates = [...this.updates]
    this.updates.clear()
    if (calls.length === 0 && updates.length === 0) return undefined
    return this.message(calls, updates, false)
  }

  /** This component's snapshot, to run its listeners (or take its parent's props) in a request it is not otherwise part of. */
  listen(): Message | undefined {
    const { listeners, props, bindings, isolate, lazy } = this.memo
    if (this.inFlight || this.calls.length > 0 || this.updates.size > 0 || !(listeners?.length || props || bindings) || isolate || lazy) return undefined
    return {
      component: this,
      body: { fingerprint: { id: this.id, name: this.name }, serverMemo: this.memo },
      poll: false,
      alone: false,
      dispatches: false,
      begin: (flight) => (this.inFlight = flight),
      settle: (outcome) => {
        try {
          if (outcome && 'response' in outcome) applyResponse(this, outcome.response, new Set(this.updates.keys())).catch(console.error)
          else if (outcome && 'error' in outcome) showError(this.config, outcome.error.status, JSON.stringify(outcome.error))
        } finally {
          this.inFlight = undefined
          if (this.calls.length > 0 || this.updates.size > 0) schedule(this)
        }
      },
    }
  }

  private message(calls: PendingCall[], updates: Array<[string, unknown]>, alone: boolean): Message {
    const islands = new Set(calls.map((call) => call.options.island ?? null))
    const request: UpdateRequest = {
      fingerprint: { id: this.id, name: this.name },
      serverMemo: this.memo,
      updates,
      // $refresh only carries updates: it is not sent when something else is.
      calls: calls.filter((call) => call.method !== '$refresh' || calls.length === 1).map(({ method, params }) => ({ method, params })),
      island: islands.size === 1 ? ([...islands][0] ?? null) : null,
      ...(calls.length > 0 && calls.every((call) => call.options.renderless) ? { renderless: true } : {}),
    }
    if (request.calls.length === 1 && request.calls[0]!.method === '$refresh' && updates.length > 0 && !calls[0]!.options.poll) request.calls = []
    // Each call's place among the calls sent, which the server's answer keys its per-call results by.
    const sent = request.calls.length === 0 ? [] : calls.filter((call) => call.method !== '$refresh' || calls.length === 1)
    const poll = calls.length > 0 && calls.every((call) => call.options.poll)
    const triggers = calls.map((call) => call.options.trigger).filter((el): el is Element => !!el)
    let heard: Phases | undefined
    return {
      component: this,
      body: request,
      poll,
      // A lazy component's first load goes alone, as an isolated one's requests do: many load at once, none waits for another.
      alone: alone || !!this.memo.isolate || !!this.memo.lazy,
      dispatches: calls.some((call) => !call.options.poll && call.method !== '$refresh'),
      begin: (flight) => {
        if (!alone) this.inFlight = flight
        this.status.loading = true
        this.status.targets = [...calls.map((call) => call.method), ...updates.map(([path]) => path)]
        for (const el of triggers) el.setAttribute('data-loading', '')
        heard = interceptOutgoingMessage(
          this,
          request.calls.map(({ method, params }) => ({ name: method, params })),
          updates,
        )
        heard.fire('send', { payload: request })
        for (const call of calls) call.hooks.fire('send', { call: { method: call.method, params: call.params } })
      },
      settle: (outcome) => {
        try {
          if (heard) messagePhase(heard, outcome)
          this.settle(calls, outcome, sent)
        } finally {
          heard?.fire('finish')
          for (const el of triggers) el.removeAttribute('data-loading')
          this.status.loading = !alone ? false : this.busy
          this.status.targets = []
          for (const [path] of updates) if (!this.updates.has(path)) delete this.status.dirty[path]
          if (!alone) this.inFlight = undefined
          for (const call of calls) call.hooks.fire('finish')
          if (this.calls.length > 0 || this.updates.size > 0) schedule(this)
        }
      },
    }
  }

  /** Applies an answer and resolves the calls it carried; a failure resolves them with nothing (it was shown) or rejects them. */
  private settle(calls: PendingCall[], outcome: Outcome, sent: PendingCall[]): void {
    const resultOf = (call: PendingCall) => callResult(this, { method: call.method, index: sent.indexOf(call) }, outcome)
    if (outcome && 'response' in outcome) {
      const applied = applyResponse(this, outcome.response, new Set(this.updates.keys()))
      for (const call of calls) {
        call.hooks.fire('success', outcome.response)
        const result = resultOf(call)
        // The promise of `$wire.save()` resolves once the page shows the answer (a frame later in a view transition).
        applied.then(
          () => (result && 'error' in result ? call.reject(result.error) : call.resolve(result ? result.value : outcome.response)),
          (error: unknown) => call.reject(error),
        )
      }
      return
    }
    const error = outcome && 'failed' in outcome ? outcome.failed : undefined
    if (outcome && 'error' in outcome) {
      // This component's part failed on the server; the others in the request were answered.
      let prevented = false
      for (const call of calls) call.hooks.fire('error', { ...outcome.error, preventDefault: () => (prevented = true) })
      if (!prevented) showError(this.config, outcome.error.status, JSON.stringify(outcome.error))
    } else if ((error as Error | undefined)?.name === 'AbortError') {
      // A cancelled poll (or a request an interceptor cancelled): its waiters just get nothing.
      for (const call of calls) call.hooks.fire('cancel')
    } else if (!(error instanceof RequestFailed)) {
      console.error(error)
      for (const call of calls) {
        call.hooks.fire('failure', { error })
        call.reject(error)
      }
      return
    } else for (const call of calls) call.hooks.fire('failure', { error })
    // Shown already, so the waiters get nothing; a feature may reject its calls instead (a `@json()` action's promise).
    for (const call of calls) {
      const result = resultOf(call)
      if (result && 'error' in result) call.reject(result.error)
      else call.resolve(undefined)
    }
  }
}

/** Tells a message's interceptors how its request went. */
function messagePhase(heard: Phases, outcome: Outcome): void {
  if (!outcome) return
  if ('response' in outcome) return heard.fire('success', outcome.response)
  if ('error' in outcome) return heard.fire('error', outcome.error)
  heard.fire((outcome.failed as Error | undefined)?.name === 'AbortError' ? 'cancel' : 'failure', { error: outcome.failed })
}

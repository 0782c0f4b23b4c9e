import { alpine, type BootConfig } from './alpine.ts'
import { applyResponse } from './apply.ts'
import { getPath, setPath } from './literal.ts'
import { RequestFailed, send, type UpdateRequest, type UpdateResponse } from './transport.ts'
import { makeWire } from './wire.ts'
import type { CallOptions, Memo, PageComponent } from './page-component.ts'

export type { CallOptions, Memo } from './page-component.ts'

interface PendingCall {
  method: string
  params: unknown[]
  options: CallOptions
  resolve(response: UpdateResponse | undefined): void
  reject(error: unknown): void
}

/**
 * One component in the page: its reactive state (what bindings and `$wire`
 * read), its memo (what the server needs back), and its request queue.
 * Updates and calls made within `coalesce_ms` go out as one request; a user
 * action made while a request is in flight waits for it; a poll is dropped
 * while a request is in flight, and a user action cancels an in-flight poll.
 */
export class CompComponent implements PageComponent {
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
  private timer?: ReturnType<typeof setTimeout>
  private inFlight?: { controller: AbortController; poll: boolean; done: Promise<void> }

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
  set(path: string, value: unknown, live = false): Promise<UpdateResponse | undefined> {
    setPath(this.data, path, value)
    this.updates.set(path, value)
    this.status.dirty[path] = true
    if (!live) return Promise.resolve(undefined)
    return this.call('$refresh', [], {})
  }

  /** Queues a call; resolves with the answer that carried it (undefined for a dropped poll). */
  call(method: string, params: unknown[] = [], options: CallOptions = {}): Promise<UpdateResponse | undefined> {
    if (options.poll && (this.inFlight || this.calls.length > 0)) return Promise.resolve(undefined)
    if (!options.poll && this.inFlight?.poll) this.inFlight.controller.abort()
    return new Promise((resolve, reject) => {
      this.calls.push({ method, params, options, resolve, reject })
      this.schedule()
    })
  }

  /** Sends what is queued now, without waiting for `coalesce_ms`. */
  commit(): Promise<UpdateResponse | undefined> {
    return this.call('$refresh', [], {})
  }

  private schedule(): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.flush()
    }, this.config.coalesceMs ?? 16)
  }

  private async flush(): Promise<void> {
    if (this.inFlight) {
      await this.inFlight.done
      return this.schedule()
    }
    const calls = this.calls.splice(0)
    const updates = [...this.updates]
    this.updates.clear()
    if (calls.length === 0 && updates.length === 0) return
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
    const controller = new AbortController()
    const poll = calls.length > 0 && calls.every((call) => call.options.poll)
    const triggers = calls.map((call) => call.options.trigger).filter((el): el is Element => !!el)
    let finish!: () => void
    this.inFlight = { controller, poll, done: new Promise((resolve) => (finish = resolve)) }
    this.status.loading = true
    this.status.targets = [...calls.map((call) => call.method), ...updates.map(([path]) => path)]
    for (const el of triggers) el.setAttribute('data-loading', '')
    try {
      const response = await send(this.config, request, controller.signal)
      applyResponse(this, response, new Set(this.updates.keys()))
      for (const call of calls) call.resolve(response)
    } catch (error) {
      if ((error as Error).name === 'AbortError') {
        // A cancelled poll: nothing changed on the server that matters; its waiters just get nothing.
        for (const call of calls) call.resolve(undefined)
      } else {
        for (const call of calls) {
          if (error instanceof RequestFailed) call.resolve(undefined)
          else call.reject(error)
        }
        if (!(error instanceof RequestFailed)) console.error(error)
      }
    } finally {
      for (const el of triggers) el.removeAttribute('data-loading')
      this.status.loading = false
      this.status.targets = []
      for (const [path] of updates) if (!this.updates.has(path)) delete this.status.dirty[path]
      this.inFlight = undefined
      finish()
      if (this.calls.length > 0 || this.updates.size > 0) this.schedule()
    }
  }
}

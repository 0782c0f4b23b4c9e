import type { BootConfig } from './alpine.ts'
import type { PageComponent } from './page-component.ts'
import { components } from './registry.ts'
import { send, type UpdateResponse } from './transport.ts'

/** A request in flight: its components' next updates wait for it; a user action cancels it when it carries only polls. */
export interface Flight {
  controller: AbortController
  poll: boolean
}

/**
 * What a request did for one component: its answer, its own failure on the
 * server (the others were answered), the whole request's failure, or
 * nothing (a listener no event reached).
 */
export type Outcome = { response: UpdateResponse } | { error: { status: number; message: string } } | { failed: unknown } | undefined

/** One component's part of a request. */
export interface Message {
  component: PageComponent
  /** Its entry in the body: an update, or a listener's snapshot. */
  body: object
  poll: boolean
  /** Goes in a request of its own (an `@isolate()` component, an `.async` call). */
  alone: boolean
  /** May dispatch events (a call other than a poll or `$refresh`): listening components then go along. */
  dispatches: boolean
  begin(flight: Flight): void
  settle(outcome: Outcome): void
}

/** A component as the queue drives it. */
export interface Queued extends PageComponent {
  readonly busy: boolean
  /** What it has queued, as a message (undefined when nothing is). */
  take(): Message | undefined
  /** Its snapshot as a listener, when it is idle and listens for events. */
  listen(): Message | undefined
}

/** What a feature's browser half adds to how requests are put together (props: reactive children). */
export interface RequestHooks {
  /** True when an idle component goes along in a request carrying the components `ids` (a child following its parent). */
  joins?(component: PageComponent, ids: Set<string>): boolean
  /** The order of a request's messages (parents before their children). */
  order?<T extends { component: PageComponent }>(messages: T[]): T[]
}

const hooks: RequestHooks[] = []

/**
 * Registers a feature's part in putting requests together: which idle
 * components go along, and in what order the messages run on the server.
 *
 * @example
 * ```ts
 * extendRequests({ joins: (component, ids) => ids.has(parentOf(component).id), order: parentsFirst })
 * ```
 */
export function extendRequests(added: RequestHooks): void {
  hooks.push(added)
}

/** The most bytes of listeners' snapshots one request carries along. */
const LISTENER_BYTES = 64_000

const waiting = new Set<Queued>()
let timer: ReturnType<typeof setTimeout> | undefined

/**
 * Asks for a component's queue to be sent: everything the page's
 * components queue within `coalesce_ms` goes in one request. A component
 * whose request is in flight is left out; it asks again when its answer
 * has been applied.
 *
 * @example
 * ```ts
 * schedule(component)
 * ```
 */
export function schedule(component: Queued): void {
  waiting.add(component)
  timer ??= setTimeout(() => flush(component.config), component.config.coalesceMs ?? 16)
}

function flush(config: BootConfig): void {
  timer = undefined
  const messages: Message[] = []
  for (const component of waiting) {
    const message = component.busy ? undefined : component.take()
    if (message) messages.push(message)
  }
  waiting.clear()
  // Components with a message in this flush are not idle, whichever request carries them.
  const taken = new Set(messages.map((message) => message.component))
  for (const message of messages) if (message.alone) void run([message], config, taken)
  // Bundles within the server's limits: a component count, and a body size that leaves room for listeners.
  const max = config.maxComponents ?? 50
  const room = (config.maxPayloadBytes ?? 2_000_000) - LISTENER_BYTES
  let group: Message[] = []
  let size = 0
  for (const message of messages.filter((message) => !message.alone)) {
    const bytes = sizeOf(message.body)
    if (group.length > 0 && (group.length >= max || size + bytes > room)) {
      void run(group, config, taken)
      group = []
      size = 0
    }
    group.push(message)
    size += bytes
  }
  if (group.length > 0) void run(group, config, taken)
}

/** The size of a body as sent: JSON, in UTF-8 bytes. */
function sizeOf(body: object): number {
  return new TextEncoder().encode(JSON.stringify(body)).length
}

/**
 * Sends one message in a request of its own, now.
 *
 * @example
 * ```ts
 * sendAlone(message)
 * ```
 */
export function sendAlone(message: Message): void {
  void run([message], message.component.config)
}

/** Idle components that listen for events, or that a feature sends along (`joins`), within the count and byte caps. */
function listenersFor(messages: Message[], config: BootConfig, taken: Set<PageComponent>): Message[] {
  const dispatching = messages.some((message) => message.dispatches && !message.alone)
  const ids = new Set(messages.map((message) => message.component.id))
  const out: Message[] = []
  let bytes = 0
  for (const component of components.values() as IterableIterator<Queued>) {
    if (messages.length + out.length >= (config.maxComponents ?? 50)) break
    const wanted = (dispatching && !!component.memo.listeners?.length) || hooks.some((hook) => hook.joins?.(component, ids))
    const message = !wanted || taken.has(component) ? undefined : component.listen()
    const size = message ? sizeOf(message.body) : 0
    if (!message || bytes + size > LISTENER_BYTES) continue
    bytes += size
    out.push(message)
  }
  return out
}

/** One request: a lone update in the single form, else `{ components, listeners }`; each part settles with its own outcome. */
async function run(queued: Message[], config: BootConfig, taken = new Set(queued.map((m) => m.component))): Promise<void> {
  const messages = hooks.reduce((ordered, hook) => hook.order?.(ordered) ?? ordered, queued)
  const listeners = listenersFor(messages, config, taken)
  const all = [...messages, ...listeners]
  const flight: Flight = { controller: new AbortController(), poll: messages.every((message) => message.poll) }
  for (const message of all) message.begin(flight)
  const single = all.length === 1
  const body = single ? all[0]!.body : { components: messages.map((m) => m.body), ...(listeners.length > 0 ? { listeners: listeners.map((m) => m.body) } : {}) }
  let parts: unknown[] | undefined
  let failure: unknown
  try {
    const answer = await send<UpdateResponse & { components: unknown[]; listeners?: unknown[] }>(
      config,
      body,
      flight.controller,
      all.map((m) => m.component),
    )
    parts = single ? [answer] : [...answer.components, ...(answer.listeners ?? [])]
  } catch (error) {
    failure = error
  }
  for (const [i, message] of all.entries()) {
    try {
      message.settle(parts ? outcome(parts[i]) : { failed: failure })
    } catch (error) {
      console.error(error)
    }
  }
}

function outcome(part: unknown): Outcome {
  if (!part) return undefined
  return 'error' in (part as object) ? (part as { error: { status: number; message: string } }) : { response: part as UpdateResponse }
}

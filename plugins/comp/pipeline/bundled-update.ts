import { z } from 'zod'
import { errorCode, HttpException, logStatus, renderDebugPage, type HttpContext } from '../../../core/index.ts'
import type { CompConfig } from '../comp-config.ts'
import { signedEndpoint } from '../protocol/keys.ts'
import type { CompServices } from '../lifecycle/component-hook.ts'
import { showsErrorPages } from './error-page.ts'
import { updateComponent } from '../lifecycle/update.ts'
import type { UpdateResponse } from '../protocol/update-response.ts'
import { checkEntry } from '../protocol/update-checks.ts'
import { parseSnapshotPart, parseUpdatePayload, type UpdatePayload } from '../protocol/update-payload.ts'

/**
 * One entry's failure, in place of its answer: the status and message a
 * request of its own would have got; for a crash in debug mode, also the
 * debug page (`page`, HTML) the browser shows in its error dialog
 * (`showsErrorPages`); a `KilnError`'s `code` as a request of its own has it.
 */
export interface EntryError {
  error: { status: number; message: string; code?: string; errors?: Record<string, string[]>; page?: string }
}

/** What a bundled `POST /comp/update` answers: the entries' answers in the order they came, and one fresh address. */
export interface BatchResponse {
  components: Array<UpdateResponse | EntryError>
  /** A listener's answer; null when no event of this request reached it (its snapshot is still current). */
  listeners: Array<UpdateResponse | EntryError | null>
  endpoint: string
}

/**
 * True for the bundled form of an update body (`{ components: [...] }`).
 *
 * @example
 * ```ts
 * if (isBatch(ctx.request.body())) return runBatch(services, ctx, body)
 * ```
 */
export function isBatch(body: unknown): body is { components: unknown } {
  return typeof body === 'object' && body !== null && Object.prototype.hasOwnProperty.call(body, 'components')
}

/**
 * A bundled update: several components' updates in one request, and the
 * snapshots of components that only listen (`listeners`). The counts come
 * first (at most `limits.max_components` entries, 422), then each entry's
 * shape and every check a single update gets: a tampered, expired or
 * foreign snapshot anywhere refuses the whole request (403 / 419) before
 * anything runs. Then the entries run in order, each on its own: one that
 * fails (an action's 403, a validation 422, a crash) answers
 * `{ error: { status, message } }` and the others are answered as usual.
 * Last, the events the entries dispatched reach the listeners, as `$event`
 * calls with the same authorisation as the browser's: each listener with a
 * matching `@on` (respecting `to`, never `self`) is updated, and each
 * event lists the listeners it reached in `delivered`, so the browser does
 * not send it again.
 *
 * @example
 * ```ts
 * return runBatch(services, ctx, ctx.request.body())
 * ```
 */
export async function runBatch(services: CompServices, ctx: HttpContext, body: unknown): Promise<BatchResponse> {
  const { components, listeners } = parseBatch(services.config.limits, body)
  for (const entry of [...components, ...listeners]) await checkEntry(services, ctx, entry)
  const answers: BatchResponse['components'] = []
  for (const payload of components) answers.push(await attempt(ctx, () => updateComponent(services, payload, ctx)))
  const heard: BatchResponse['listeners'] = []
  for (const listener of listeners) heard.push(await hear(services, ctx, listener, answers))
  // One address per request: every entry's answer carries the same fresh one.
  const endpoint = signedEndpoint(services.app.service('signer'), services.config.endpoint, services.config.signature_ttl_minutes, services.binding.tag(ctx))
  for (const answer of [...answers, ...heard]) if (answer && 'effects' in answer) answer.effects.endpoint = endpoint
  return { components: answers, listeners: heard, endpoint }
}

type Listener = Pick<UpdatePayload, 'fingerprint' | 'serverMemo'>

/** True when a listening component sent with a bundled update must update without an event for it. */
export type ListenerWake = (ctx: HttpContext, listener: { fingerprint: { id: string }; serverMemo: Record<string, unknown> }) => boolean

const wakes: ListenerWake[] = []

/**
 * Lets a feature wake a listening component of a bundled update (the props
 * feature: its parent passed it new reactive or bound values in this request).
 *
 * @example
 * ```ts
 * addListenerWake(propsMoved)
 * ```
 */
export function addListenerWake(wake: ListenerWake): void {
  if (!wakes.includes(wake)) wakes.push(wake)
}

/** The body, counted before any entry is read, then each entry checked as a single update's body is. */
function parseBatch(limits: CompConfig['limits'], body: unknown): { components: UpdatePayload[]; listeners: Listener[] } {
  const max = limits.max_components
  const counted = z
    .object({
      components: z.array(z.unknown()).min(1).max(max, `At most ${max} components per request.`),
      listeners: z.array(z.unknown()).max(max, `At most ${max} components per request.`).default([]),
    })
    .parse(body)
  if (counted.components.length + counted.listeners.length > max) throw new HttpException(422, `At most ${max} components per request.`)
  const components = counted.components.map((item) => parseUpdatePayload(limits, item))
  const listeners = counted.listeners.map((item) => parseSnapshotPart(item))
  const ids = [...components, ...listeners].map((item) => item.fingerprint.id)
  // Two snapshots of one component would fork its state.
  if (new Set(ids).size !== ids.length) throw new HttpException(422, 'A component appears twice in one request.')
  return { components, listeners }
}

/** Runs the listeners of one listening component for the events this request dispatched to it. */
async function hear(
  services: CompServices,
  ctx: HttpContext,
  listener: Listener,
  answers: BatchResponse['components'],
): Promise<UpdateResponse | EntryError | null> {
  const listens = listener.serverMemo.listeners
  const events = answers
    .flatMap((answer) => ('effects' in answer ? answer.effects.dispatches : []))
    .filter((event) => !event.self && (!event.to || event.to === listener.fingerprint.name) && Array.isArray(listens) && listens.includes(event.name))
  // Beyond the calls one request may make, the browser delivers them as before.
  const delivered = events.length > services.config.limits.max_calls ? [] : events
  // A child whose parent passed it new reactive or bound values in this request renders again (features/props).
  if (delivered.length === 0 && !wakes.some((wake) => wake(ctx, listener))) return null
  for (const event of delivered) event.delivered = [...(event.delivered ?? []), listener.fingerprint.id]
  const calls = delivered.map((event) => ({ method: '$event', params: [event.name, event.params] }))
  return attempt(ctx, () => updateComponent(services, { ...listener, updates: [], calls, island: null }, ctx))
}

/**
 * One entry's answer, or its failure as the status and message it would
 * have had alone; a crash is logged (and in debug mode comes with its debug
 * page). The request log records the failure's status, as the browser
 * shows it, not the bundle's 200.
 */
async function attempt(ctx: HttpContext, work: () => Promise<UpdateResponse>): Promise<UpdateResponse | EntryError> {
  try {
    return await work()
  } catch (error) {
    const failed = await failure(ctx, error)
    const code = errorCode(error)
    if (code !== undefined) failed.error.code = code
    logStatus(ctx, failed.error.status)
    return failed
  }
}

/** A failed entry's answer. */
async function failure(ctx: HttpContext, error: unknown): Promise<EntryError> {
  if (error instanceof HttpException) {
    const errors = error.body?.errors as Record<string, string[]> | undefined
    return { error: { status: error.status, message: error.message, ...(errors ? { errors } : {}) } }
  }
  const status = (error as { status?: unknown } | null)?.status
  if (typeof status === 'number' && status >= 400 && status < 500) return { error: { status, message: (error as Error).message } }
  const logger = ctx.app.hasService('logger') ? ctx.app.service('logger') : undefined
  if (logger) logger.error({ err: error, method: ctx.request.method, path: ctx.request.path }, 'Unhandled error in a bundled component update')
  else console.error('Unhandled error in a bundled component update', error)
  if (!ctx.app.debug || !(error instanceof Error)) return { error: { status: 500, message: 'Server error.' } }
  return { error: { status: 500, message: error.message, ...(showsErrorPages(ctx) ? { page: await renderDebugPage(error, ctx, 500) } : {}) } }
}

import { HttpException } from '../../../core/index.ts'
import type { CompConfig } from '../comp-config.ts'

/** A checked update request. */
export interface UpdatePayload {
  fingerprint: { id: string; name: string }
  serverMemo: { data: Record<string, unknown>; errors: Record<string, string[]>; checksum: string; [key: string]: unknown }
  updates: Array<[string, unknown]>
  calls: Array<{ method: string; params: unknown[] }>
  island?: string | null
  /** Skip the HTML of this request (a `.renderless` action). */
  renderless?: boolean
}

const FINGERPRINT_ID = /^[A-Za-z0-9]{1,40}$/

/**
 * The body of `POST /comp/update`, checked before anything else reads it:
 * shapes, and the counts of `limits` (422 beyond them, with `errors` by
 * path as a schema's failure answers). The memo's contents are then
 * trusted only once its checksum matches. Written out by hand rather than
 * as a schema: it runs on every update, and a schema library's walk was a
 * measurable part of one (see docs/architecture.md).
 *
 * @example
 * ```ts
 * const payload = parseUpdatePayload(config.limits, request.body())
 * ```
 */
export function parseUpdatePayload(limits: CompConfig['limits'], body: unknown): UpdatePayload {
  const { fingerprint, serverMemo } = parseSnapshotPart(body)
  const input = body as Record<string, unknown>
  const updates = input.updates === undefined ? [] : input.updates
  if (!Array.isArray(updates)) refuse('updates', 'Expected a list.')
  if (updates.length > limits.max_updates) refuse('updates', `At most ${limits.max_updates} updates per request.`)
  for (let i = 0; i < updates.length; i++) {
    const update: unknown = updates[i]
    if (!Array.isArray(update) || update.length !== 2) refuse(`updates.${i}`, 'Expected a [path, value] pair.')
    if (!text(update[0], 1, 1000)) refuse(`updates.${i}.0`, 'Expected a path of 1 to 1000 characters.')
  }
  const given = input.calls === undefined ? [] : input.calls
  if (!Array.isArray(given)) refuse('calls', 'Expected a list.')
  if (given.length > limits.max_calls) refuse('calls', `At most ${limits.max_calls} calls per request.`)
  const calls: UpdatePayload['calls'] = []
  for (let i = 0; i < given.length; i++) {
    const call: unknown = given[i]
    if (!isRecord(call)) refuse(`calls.${i}`, 'Expected an object.')
    if (!text(call.method, 1, 100)) refuse(`calls.${i}.method`, 'Expected a method name of 1 to 100 characters.')
    const params = call.params === undefined ? [] : call.params
    if (!Array.isArray(params) || params.length > 100) refuse(`calls.${i}.params`, 'Expected a list of at most 100 parameters.')
    calls.push({ method: call.method as string, params })
  }
  const payload: UpdatePayload = { fingerprint, serverMemo, updates: updates as UpdatePayload['updates'], calls }
  if (input.island !== undefined) {
    if (input.island !== null && !text(input.island, 0, 100)) refuse('island', 'Expected an island name of at most 100 characters, or null.')
    payload.island = input.island as string | null
  }
  if (input.renderless !== undefined) {
    if (typeof input.renderless !== 'boolean') refuse('renderless', 'Expected true or false.')
    payload.renderless = input.renderless
  }
  return payload
}

/**
 * The fingerprint and memo of an update body (what a listening component
 * of a bundled request sends), checked as `parseUpdatePayload` checks them.
 *
 * @example
 * ```ts
 * const { fingerprint, serverMemo } = parseSnapshotPart(entry)
 * ```
 */
export function parseSnapshotPart(body: unknown): Pick<UpdatePayload, 'fingerprint' | 'serverMemo'> {
  if (!isRecord(body)) refuse('_', 'Expected an object.')
  const { fingerprint, serverMemo } = body
  if (!isRecord(fingerprint)) refuse('fingerprint', 'Expected an object.')
  if (typeof fingerprint.id !== 'string' || !FINGERPRINT_ID.test(fingerprint.id)) refuse('fingerprint.id', 'The fingerprint id is not valid.')
  if (!text(fingerprint.name, 1, 200)) refuse('fingerprint.name', 'Expected a name of 1 to 200 characters.')
  if (!isRecord(serverMemo)) refuse('serverMemo', 'Expected an object.')
  if (!isRecord(serverMemo.data)) refuse('serverMemo.data', 'Expected an object.')
  if (!text(serverMemo.checksum, 0, 64)) refuse('serverMemo.checksum', 'Expected a checksum of at most 64 characters.')
  const errors = serverMemo.errors === undefined ? {} : serverMemo.errors
  if (!isRecord(errors)) refuse('serverMemo.errors', 'Expected an object.')
  for (const [key, messages] of Object.entries(errors)) {
    if (!Array.isArray(messages) || !messages.every((message) => typeof message === 'string'))
      refuse(`serverMemo.errors.${key}`, 'Expected a list of messages.')
  }
  // The memo's other keys (types, children, listeners…) travel as they came: its checksum vouches for them.
  return {
    fingerprint: { id: fingerprint.id, name: fingerprint.name as string },
    serverMemo: { ...serverMemo, errors } as UpdatePayload['serverMemo'],
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown, min: number, max: number): boolean {
  return typeof value === 'string' && value.length >= min && value.length <= max
}

/** A 422 shaped as a schema's failure answers: the message, and `errors` by path. */
function refuse(path: string, message: string): never {
  throw new HttpException(422, message, { body: { errors: { [path]: [message] } } })
}

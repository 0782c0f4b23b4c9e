import type { TestResponse } from '../../../core/testing/index.ts'
import type { UpdateResponse } from '../protocol/update-response.ts'

/**
 * The method by which a value that a test sets (`set('photo', file)`) gets
 * ready before the update is sent, as the browser gets it ready: a fake
 * upload is sent to the upload endpoint and becomes its reference. A
 * feature's test value (uploads' `UploadedFile.fake()`) implements it; the
 * kernel knows only this protocol, not the feature.
 *
 * @example
 * ```ts
 * class FakeFile { async [PREPARE_TEST_VALUE](context: TestValueContext) { return { value: await upload(context, this) } } }
 * ```
 */
export const PREPARE_TEST_VALUE: unique symbol = Symbol.for('kiln.comp.prepare-test-value')

/** What a test value may do to get ready: the steps the browser's client would take. */
export interface TestValueContext {
  /** The property being set. */
  readonly path: string
  /** Calls a method of the component without rendering (`$upload`), as a real update; its effects, or undefined when refused. */
  call(method: string, ...params: unknown[]): Promise<UpdateResponse['effects'] | undefined>
  /** Sends a form with the test's client (session, CSRF token) to an address of the app. */
  post(url: string, form: FormData): Promise<TestResponse>
  /**
   * Keeps a refusal that the browser shows without asking the server again:
   * the status and message (`assertStatus`), and messages by field, shown in
   * `errors` until the next update (the browser's `$errors`).
   */
  refuse(status: number, message: string, errors: Record<string, string[]>): void
}

/** A value that gets ready before it is sent: `values` are all the items of a list set at once (one for a single value). */
export interface PreparedTestValue {
  [PREPARE_TEST_VALUE](context: TestValueContext, values: readonly unknown[], multiple: boolean): Promise<{ value: unknown } | undefined>
}

/**
 * The value to send for `value`: as it is, or, for a test value (or a list
 * of them), what it became once ready; `undefined` when it could not get
 * ready (refused), and the update of that property is not sent.
 *
 * @example
 * ```ts
 * const ready = await prepareTestValue(context, file) // { value: 'comp-upload:…' }
 * ```
 */
export async function prepareTestValue(context: TestValueContext, value: unknown): Promise<{ value: unknown } | undefined> {
  if (isPrepared(value)) return value[PREPARE_TEST_VALUE](context, [value], false)
  if (Array.isArray(value) && value.length > 0 && value.every(isPrepared)) return value[0]![PREPARE_TEST_VALUE](context, value, true)
  return { value }
}

function isPrepared(value: unknown): value is PreparedTestValue {
  return typeof value === 'object' && value !== null && typeof (value as Partial<PreparedTestValue>)[PREPARE_TEST_VALUE] === 'function'
}

import { readCallResultsWith } from '../../../client/call-results.ts'
import { RequestFailed } from '../../../client/request-failed.ts'
import type { JsonResult } from '../json-hook.ts'

/**
 * What a `@json()` action's promise rejects with, as Livewire's: the
 * status (422 for validation), the answer's body and its JSON when there
 * was one, and the validation messages by field.
 */
interface JsonFailure {
  status: number
  body: string | null
  json: unknown
  errors: Record<string, string[]> | null
}

// `await $wire.find('kiln')` resolves with what a `@json()` action returned, or rejects with a JsonFailure.
readCallResultsWith((component, call, outcome) => {
  if (!(component.memo.json as string[] | undefined)?.includes(call.method)) return undefined
  if (!outcome) return undefined
  if ('response' in outcome) {
    const result = (outcome.response.effects as { json?: Record<number, JsonResult> }).json?.[call.index]
    if (!result) return { value: undefined }
    if ('errors' in result) return { error: failure(422, null, null, result.errors) }
    return { value: result.value }
  }
  if ('error' in outcome)
    return { error: failure(outcome.error.status, null, outcome.error, (outcome.error as { errors?: JsonFailure['errors'] }).errors ?? null) }
  const failed = outcome.failed
  // A cancelled call (an interceptor's cancel()) resolves with nothing, as any other.
  if (!(failed instanceof RequestFailed)) return undefined
  const json = parsed(failed.body)
  return { error: failure(failed.status, failed.body, json, (json as { errors?: JsonFailure['errors'] } | null)?.errors ?? null) }
})

function failure(status: number, body: string | null, json: unknown, errors: JsonFailure['errors']): JsonFailure {
  return { status, body, json, errors }
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return null
  }
}

import { FORBIDDEN_KEYS } from '../support/dot-path.ts'

/** Old input over this size (serialised) is not flashed: a form post must not grow the session. */
const MAX_FLASHED_INPUT = 4096
/** Inputs never flashed back to a form. */
const NEVER_FLASHED = new Set(['password', 'password_confirmation', 'current_password', '_token'])

type SessionData = Record<string, unknown>

/**
 * Notes in a session's data that `key` was flashed: kept for the next
 * request, then dropped. The flash bookkeeping lives in the data itself
 * (`_flash`), so it is saved and merged like any other key.
 *
 * @example
 * ```ts
 * data.status = 'Saved.'
 * markFlashed(data, 'status')
 * ```
 */
export function markFlashed(data: SessionData, key: string): void {
  let flash = data._flash as { old: string[]; new: string[] } | undefined
  if (!flash || !Array.isArray(flash.old) || !Array.isArray(flash.new)) data._flash = flash = { old: [], new: [] }
  flash.new = [...flash.new.filter((k) => k !== key), key]
  flash.old = flash.old.filter((k) => k !== key)
}

/**
 * The part of a form's input worth flashing back to it: no passwords, no
 * token, no value over 4 KB serialised.
 *
 * @example
 * ```ts
 * flashableInput({ email: 'a@b.c', password: 'x' }) // { email: 'a@b.c' }
 * ```
 */
export function flashableInput(input: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (NEVER_FLASHED.has(key) || FORBIDDEN_KEYS.has(key) || value === undefined) continue
    if (Buffer.byteLength(JSON.stringify(value) ?? '') > MAX_FLASHED_INPUT) continue
    kept[key] = value
  }
  return kept
}

/**
 * On load: what the previous request flashed becomes this request's to read.
 *
 * @example
 * ```ts
 * ageFlashOnLoad(record.data)
 * ```
 */
export function ageFlashOnLoad(data: SessionData): void {
  const flash = data._flash as { old?: string[]; new?: string[] } | undefined
  if (!flash) return
  data._flash = { old: [...(flash.old ?? []), ...(flash.new ?? [])], new: [] }
}

/**
 * On save: drops what was flashed for this request (unless flashed again).
 *
 * @example
 * ```ts
 * ageFlashOnSave(data)
 * ```
 */
export function ageFlashOnSave(data: SessionData): void {
  const flash = data._flash as { old: string[]; new: string[] } | undefined
  if (!flash) return
  for (const key of flash.old) if (!flash.new.includes(key)) delete data[key]
  data._flash = { old: [], new: flash.new }
  if (flash.new.length === 0 && flash.old.length === 0) delete data._flash
}

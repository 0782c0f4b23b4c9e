import { FORBIDDEN_KEYS } from '../support/dot-path.ts'
import { HttpException } from './http-exception.ts'

/** A parsed request body: fields, and uploaded files for multipart forms. */
export interface ParsedBody {
  fields: Record<string, unknown>
  files: Record<string, File | File[]>
  /** The raw text of a JSON or urlencoded body (for signature checks). */
  raw?: string
}

const EMPTY: ParsedBody = Object.freeze({ fields: Object.freeze({}), files: Object.freeze({}) }) as ParsedBody

/**
 * Parses a request body by its content type: JSON, urlencoded or multipart.
 * Refuses bodies over `limit` bytes (413), malformed JSON (400) and
 * prototype-polluting keys (400).
 *
 * @example
 * ```ts
 * const { fields, files } = await parseBody(request, 1_000_000)
 * ```
 */
export async function parseBody(request: Request, limit: number): Promise<ParsedBody> {
  if (!request.body) return EMPTY
  const declared = Number(request.headers.get('content-length') ?? NaN)
  if (declared > limit) throw new HttpException(413, `The request body is larger than ${limit} bytes.`)
  const type = (request.headers.get('content-type') ?? '').toLowerCase()

  if (type.includes('multipart/form-data')) return parseMultipart(request)
  const text = await readLimited(request, limit)
  if (text.length === 0) return EMPTY
  if (type.includes('application/x-www-form-urlencoded')) return { fields: parseUrlEncoded(text), files: {}, raw: text }
  if (type.includes('json') || (type === '' && /^\s*[[{]/.test(text))) return { fields: parseJson(text), files: {}, raw: text }
  return { fields: {}, files: {}, raw: text }
}

async function readLimited(request: Request, limit: number): Promise<string> {
  const reader = request.body!.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new HttpException(413, `The request body is larger than ${limit} bytes.`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Parses JSON, refusing `__proto__`, `constructor` and `prototype` keys.
 *
 * @example
 * ```ts
 * parseJson('{"a":1}') // { a: 1 }
 * ```
 */
export function parseJson(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text, (key, v) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKeyError(key)
      return v
    })
  } catch (error) {
    if (error instanceof ForbiddenKeyError) throw new HttpException(400, `The key "${error.key}" is not allowed in a request body.`)
    throw new HttpException(400, 'The request body is not valid JSON.')
  }
  if (value === null || typeof value !== 'object') throw new HttpException(400, 'The JSON body must be an object or an array.')
  return value as Record<string, unknown>
}

/**
 * Parses `a=1&b=2&tags[]=x&tags[]=y` into fields; repeated keys become arrays.
 *
 * @example
 * ```ts
 * parseUrlEncoded('tags[]=a&tags[]=b') // { tags: ['a', 'b'] }
 * ```
 */
export function parseUrlEncoded(text: string): Record<string, unknown> {
  return collect(new URLSearchParams(text).entries())
}

async function parseMultipart(request: Request): Promise<ParsedBody> {
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    throw new HttpException(400, 'The multipart body could not be parsed.')
  }
  const fields: Array<[string, string]> = []
  const files: Record<string, File | File[]> = {}
  for (const [key, value] of form.entries()) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key
    if (FORBIDDEN_KEYS.has(name)) throw new HttpException(400, `The key "${name}" is not allowed in a request body.`)
    if (typeof value === 'string') fields.push([key, value])
    else {
      const existing = files[name]
      files[name] = existing === undefined ? (key.endsWith('[]') ? [value] : value) : [...(Array.isArray(existing) ? existing : [existing]), value]
    }
  }
  return { fields: collect(fields[Symbol.iterator]()), files }
}

function collect(entries: Iterator<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (let next = entries.next(); !next.done; next = entries.next()) {
    const [key, value] = next.value
    const isList = key.endsWith('[]')
    const name = isList ? key.slice(0, -2) : key
    if (FORBIDDEN_KEYS.has(name)) throw new HttpException(400, `The key "${name}" is not allowed in a request body.`)
    const existing = out[name]
    if (existing === undefined) out[name] = isList ? [value] : value
    else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return out
}

class ForbiddenKeyError extends Error {
  constructor(readonly key: string) {
    super(key)
  }
}

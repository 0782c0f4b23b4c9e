import type { IncomingMessage } from 'node:http'
import type { IParseOptions } from 'qs'
import { limitRequestBody } from 'srvx/body-limit'
import { FORBIDDEN_KEYS } from '../../support/dot-path.ts'
import { HttpException } from '../errors/http-exception.ts'
import { lingerOnClose } from './linger-close.ts'

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
 *
 * The size limit is enforced while the body streams in, for every content
 * type and with or without `Content-Length` (srvx's `limitRequestBody`, the
 * limiter behind h3's `assertBodySize`): the byte past `limit` stops the read
 * and the request gets 413, so a chunked upload can never make the process
 * buffer more than `limit` bytes. Malformed bodies are 400, and so are
 * prototype-polluting keys (`__proto__`, `constructor`, `prototype`).
 *
 * @example
 * ```ts
 * const { fields, files } = await parseBody(request, 1_000_000)
 * ```
 */
export async function parseBody(request: Request, limit: number): Promise<ParsedBody> {
  const node = (request as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req
  const headers = request.headers
  // Asking a Node request for `.body` builds a web stream; its headers say whether there is one.
  if (node ? !headers.has('content-length') && !headers.has('transfer-encoding') : !request.body) return EMPTY
  // Both framings at once is how requests are smuggled past proxies (RFC 9112 §6.3).
  if (headers.has('transfer-encoding') && headers.has('content-length'))
    throw new HttpException(400, 'A request cannot have both Content-Length and Transfer-Encoding.')
  const declared = Number(headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit, node)
  const type = (headers.get('content-type') ?? '').toLowerCase()
  // qs is loaded by the first form body, not at boot: JSON APIs never need it.
  if (qsParse === undefined && (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data'))) await loadQs()
  // Text bodies on Node are read straight from the socket: no web stream per request.
  if (node && !type.includes('multipart/form-data')) return fromText(await readNodeBody(node, limit), type)

  let exceeded = false
  const limited = limitRequestBody(request, limit, {
    createError: () => {
      exceeded = true
      return tooLarge(limit, node)
    },
  })
  try {
    // Through a Response that keeps the boundary: the limiter's own formData() drops the content type.
    if (type.includes('multipart/form-data'))
      return fromFormData(await new Response(limited.body, { headers: { 'content-type': headers.get('content-type')! } }).formData())
    return fromText(await limited.text(), type)
  } catch (error) {
    if (exceeded) throw tooLarge(limit, node)
    if (error instanceof HttpException) throw error
    if (type.includes('multipart/form-data')) throw new HttpException(400, 'The multipart body could not be parsed.')
    throw new HttpException(400, 'The request body could not be read.')
  }
}

/** Every way a JSON text can spell a forbidden key: literally, or with a `\u` escape. */
const UNSAFE_KEY_HINT = /__proto__|constructor|prototype|\\u/

function fromText(text: string, type: string): ParsedBody {
  if (text.length === 0) return EMPTY
  if (type.includes('application/x-www-form-urlencoded')) return { fields: parseUrlEncoded(text), files: {}, raw: text }
  if (type.includes('json') || (type === '' && /^\s*[[{]/.test(text))) return { fields: parseJson(text), files: {}, raw: text }
  return { fields: {}, files: {}, raw: text }
}

/**
 * Reads a Node request's body as text, counting bytes as they arrive: the
 * chunk that passes `limit` stops the read (413) before it is kept. srvx
 * has the same reader inside its Node request but does not export it.
 */
function readNodeBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (req.readableEnded || req.destroyed) return reject(new HttpException(400, 'The request body could not be read.'))
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        done()
        req.pause()
        return reject(tooLarge(limit, req))
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      done()
      resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'))
    }
    const onError = () => {
      done()
      reject(new HttpException(400, 'The request body could not be read.'))
    }
    const onClose = () => {
      if (req.complete) return
      done()
      reject(new HttpException(400, 'The request body could not be read.'))
    }
    req.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose)
  })
}

function tooLarge(limit: number, node: IncomingMessage | undefined): HttpException {
  // The rest of the body is never read: the connection closes after this answer, without resetting it.
  if (node) lingerOnClose(node)
  return new HttpException(413, `The request body is larger than ${limit} bytes.`, { headers: { connection: 'close' } })
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
    // A reviver makes parsing several times slower; only a text that could name a forbidden key (or hide one behind an escape) needs it.
    value = UNSAFE_KEY_HINT.test(text)
      ? JSON.parse(text, (key, v) => {
          if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKeyError(key)
          return v
        })
      : JSON.parse(text)
  } catch (error) {
    if (error instanceof ForbiddenKeyError) throw new HttpException(400, `The key "${error.key}" is not allowed in a request body.`)
    throw new HttpException(400, 'The request body is not valid JSON.')
  }
  if (value === null || typeof value !== 'object') throw new HttpException(400, 'The JSON body must be an object or an array.')
  return value as Record<string, unknown>
}

/** The most brackets one form key may nest (`a[b][c][d][e][f]`); deeper is 400, as a deep JSON body would be costly too. */
export const FORM_DEPTH = 5
/** The most fields one form body may have; more is 400. */
export const FORM_FIELDS = 1000

const QS_OPTIONS: IParseOptions = {
  depth: FORM_DEPTH,
  strictDepth: true,
  parameterLimit: FORM_FIELDS,
  throwOnLimitExceeded: true,
  // A list index past the field limit (`a[99999999]=x`) is refused rather than made a sparse array.
  arrayLimit: FORM_FIELDS,
  allowDots: false,
  allowPrototypes: false,
  plainObjects: false,
  duplicates: 'combine',
}

let qsParse: ((input: string | Record<string, string | string[]>, options: IParseOptions) => Record<string, unknown>) | undefined

async function loadQs(): Promise<void> {
  const mod = (await import('qs')) as unknown as { default?: typeof import('qs'); parse?: typeof import('qs').parse }
  const qs = mod.default ?? (mod as typeof import('qs'))
  qsParse = qs.parse as typeof qsParse
}

/**
 * Parses a urlencoded body with qs: nested keys become objects and lists
 * (`user[name]=ada` is `{ user: { name: 'ada' } }`, `tags[]=x&tags[]=y` and
 * a repeated `tags=x&tags=y` are lists), so `request.input('user.name')`
 * reads a form exactly as it reads JSON. Keys nest at most {@link FORM_DEPTH}
 * deep and a body has at most {@link FORM_FIELDS} fields (400 beyond);
 * `__proto__`, `constructor` and `prototype` anywhere in a key are 400.
 * qs is loaded by {@link parseBody} on the first form body.
 *
 * @example
 * ```ts
 * parseUrlEncoded('user[name]=ada&tags[]=a&tags[]=b') // { user: { name: 'ada' }, tags: ['a', 'b'] }
 * ```
 */
export function parseUrlEncoded(text: string): Record<string, unknown> {
  const params = new URLSearchParams(text)
  let count = 0
  for (const key of params.keys()) {
    refuseForbidden(key)
    if (++count > FORM_FIELDS) throw new HttpException(400, `A form body has at most ${FORM_FIELDS} fields.`)
  }
  return parseNested(text)
}

function fromFormData(form: FormData): ParsedBody {
  const fields: Record<string, string | string[]> = Object.create(null)
  const files: Record<string, File | File[]> = {}
  let count = 0
  for (const [key, value] of form.entries()) {
    refuseForbidden(key)
    if (++count > FORM_FIELDS) throw new HttpException(400, `A form body has at most ${FORM_FIELDS} fields.`)
    const name = key.endsWith('[]') ? key.slice(0, -2) : key
    if (typeof value === 'string') {
      const existing = fields[key]
      fields[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value]
    } else {
      const existing = files[name]
      files[name] = existing === undefined ? (key.endsWith('[]') ? [value] : value) : [...(Array.isArray(existing) ? existing : [existing]), value]
    }
  }
  return { fields: count === 0 ? {} : parseNested({ ...fields }), files }
}

function parseNested(input: string | Record<string, string | string[]>): Record<string, unknown> {
  try {
    return qsParse!(input, QS_OPTIONS)
  } catch (error) {
    if (error instanceof RangeError && /depth/i.test(error.message)) throw new HttpException(400, `A form key nests at most ${FORM_DEPTH} levels deep.`)
    if (error instanceof RangeError) throw new HttpException(400, `A form list has at most ${FORM_FIELDS} items.`)
    throw new HttpException(400, 'The form body could not be parsed.')
  }
}

/** Each segment of a form key (`user[__proto__][x]`, `a.constructor`), checked before qs builds objects from it. */
function refuseForbidden(key: string): void {
  for (const segment of key.split(/[[\].]+/)) {
    if (FORBIDDEN_KEYS.has(segment)) throw new HttpException(400, `The key "${segment}" is not allowed in a request body.`)
  }
}

class ForbiddenKeyError extends Error {
  constructor(readonly key: string) {
    super(key)
  }
}
